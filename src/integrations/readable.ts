/**
 * A framework value as the text a Nebuly step carries: step fields are strings, while
 * frameworks hand over tool arguments, tool results and documents of any shape.
 */

/**
 * A value as text: a string as it is, anything else as JSON, and what JSON cannot write
 * (a cycle, a BigInt, `undefined`) through `String()`.
 *
 * @example
 * ```ts
 * readableText({ city: 'Paris' }); // '{"city":"Paris"}'
 * ```
 */
export function readableText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // A cycle or a BigInt: String() below still says something.
  }
  return String(value);
}

/**
 * Whether a framework value is an object whose fields can be read (arrays included).
 *
 * @example
 * ```ts
 * isObject(null); // false
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
