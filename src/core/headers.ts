// A header name is an RFC 9110 token; a value has no line break and no NUL, and nothing
// past Latin-1 (what fetch's `Headers` refuses too).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0\u0100-\uffff]*$/;

/**
 * Headers given as an object, checked and with lower-case names (a later spelling of a
 * name replaces an earlier one), as a plain object: no `Headers` is made, so that
 * constructing a client does not load the platform's fetch. `undefined` when a name or
 * value cannot be sent; the caller says so without quoting it (a value may be a secret).
 *
 * @example
 * ```ts
 * plainHeaders({ 'X-Team': 'search' }); // { 'x-team': 'search' }
 * plainHeaders({ 'x-bad': 'a\nb' });    // undefined
 * ```
 */
export function plainHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = typeof value === 'string' ? value.trim() : String(value);
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(text)) return undefined;
    plain[name.toLowerCase()] = text;
  }
  return plain;
}
