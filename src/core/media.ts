/**
 * Media out of what is sent: base64 images, audio and documents in a wire body become a
 * placeholder that names their media type and size (`[image/png 704 kB]`), so that no
 * base64 run over 1 kB leaves the process. http(s) URLs stay as they are.
 *
 * Applied where each path builds its wire body: the typed calls of ingesting endpoints
 * (`typed-call.ts`) and the recorder's interactions (`recorder/interaction-parts.ts`).
 * Strings are scanned left to right, a window at a time, with no regular expression that
 * can backtrack.
 */

/** A run of base64 this long or longer is media, whatever field holds it. */
export const MAX_BASE64_RUN = 1024;

/** The fields that name the media type of a sibling `data` field (Anthropic, Gemini, OpenAI files). */
const MEDIA_TYPE_FIELDS = ['media_type', 'mime_type', 'mimeType'] as const;

/** Magic numbers, as the base64 of a file's first bytes starts. */
const SIGNATURES: readonly (readonly [prefix: string, mediaType: string])[] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['JVBERi0', 'application/pdf'],
  ['SUQz', 'audio/mpeg'],
  ['//u', 'audio/mpeg'],
  ['//s', 'audio/mpeg'],
  ['T2dnUw', 'audio/ogg'],
  ['GkXfo', 'video/webm'],
  ['UEsDB', 'application/zip'],
];

function isBase64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    (code >= 48 && code <= 57) || // 0-9
    code === 43 || // +
    code === 47 || // /
    code === 45 || // - (base64url)
    code === 95 // _ (base64url)
  );
}

/** The media type a base64 payload's first bytes say, else `application/octet-stream`. */
function sniff(text: string, start: number): string {
  for (const [prefix, mediaType] of SIGNATURES) if (text.startsWith(prefix, start)) return mediaType;
  if (text.startsWith('UklGR', start)) {
    // RIFF: the form type is bytes 8 to 11.
    try {
      const head = atob(text.slice(start, start + 16));
      if (head.slice(8, 12) === 'WEBP') return 'image/webp';
      if (head.slice(8, 12) === 'WAVE') return 'audio/wav';
    } catch {
      // Not decodable as plain base64 (base64url): unknown.
    }
  }
  return 'application/octet-stream';
}

/** `704 kB`: the decoded size of `length` base64 characters, in SI units. */
function sizeOf(length: number, padding: number): string {
  const bytes = Math.max(0, Math.floor(((length + padding) * 3) / 4) - padding);
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Which of upper case, lower case, digits and symbols a base64 character is, as a bit. */
function classOf(code: number): number {
  if (code >= 65 && code <= 90) return 1;
  if (code >= 97 && code <= 122) return 2;
  if (code >= 48 && code <= 57) return 4;
  return 8;
}

/**
 * The end of the base64 run starting at `start`, its `=` padding, and whether it mixes
 * kinds of characters as encoded bytes do (a line of `-----` or `xxxxx` is text).
 */
function runEnd(text: string, start: number): { end: number; padding: number; mixed: boolean } {
  let end = start;
  let classes = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (!isBase64Char(code)) break;
    classes |= classOf(code);
    end += 1;
  }
  let padding = 0;
  while (padding < 2 && text.charCodeAt(end) === 61) {
    end += 1;
    padding += 1;
  }
  return { end, padding, mixed: classes !== 1 && classes !== 2 && classes !== 4 && classes !== 8 };
}

/**
 * The data URL starting at `at` (`data:image/png;base64,…`): its media type and where its
 * payload starts; `undefined` when it is not a base64 data URL.
 */
function dataUrlAt(text: string, at: number): { mediaType: string; payload: number } | undefined {
  const header = at + 5;
  // A media type and its parameters are short: a longer header is not one.
  const comma = text.indexOf(',', header);
  if (comma < 0 || comma - header > 200) return undefined;
  const meta = text.slice(header, comma);
  if (!meta.endsWith(';base64')) return undefined;
  const mediaType = meta.split(';')[0] ?? '';
  return { mediaType: mediaType === '' ? 'text/plain' : mediaType.toLowerCase(), payload: comma + 1 };
}

/** `text` with each base64 data URL replaced; found with the native `indexOf`. */
function withoutDataUrls(text: string): string {
  let at = text.indexOf('data:');
  if (at < 0) return text;
  let out = '';
  let copied = 0;
  while (at >= 0) {
    const url = dataUrlAt(text, at);
    if (url === undefined) {
      at = text.indexOf('data:', at + 5);
      continue;
    }
    const { end, padding } = runEnd(text, url.payload);
    out += `${text.slice(copied, at)}[${url.mediaType} ${sizeOf(end - url.payload - padding, padding)}]`;
    copied = end;
    at = text.indexOf('data:', end);
  }
  return out + text.slice(copied);
}

/**
 * The start of the next run of at least {@link MAX_BASE64_RUN} base64 characters from
 * `from`, else -1. It looks at the last character of each window first and, when that is
 * base64, back from there: text, whose words are short, is crossed a window at a time.
 */
function nextLongRun(text: string, from: number): number {
  let start = from;
  while (start + MAX_BASE64_RUN <= text.length) {
    let probe = start + MAX_BASE64_RUN - 1;
    while (probe >= start && isBase64Char(text.charCodeAt(probe))) probe -= 1;
    if (probe < start) return start;
    start = probe + 1;
  }
  return -1;
}

/**
 * `text` with each base64 data URL, and each other base64 run of {@link MAX_BASE64_RUN}
 * characters or more that mixes kinds of characters (upper and lower case, digits,
 * symbols: encoded bytes do), replaced by `[<media type> <size>]`; `mediaType` names a
 * run's type when a sibling field says it. The same string when there is none.
 *
 * @example
 * ```ts
 * withoutMediaText('see data:image/png;base64,iVBORw0KGgo…'); // 'see [image/png 704 kB]'
 * ```
 */
export function withoutMediaText(text: string, mediaType?: string): string {
  const withoutUrls = text.length < 5 ? text : withoutDataUrls(text);
  if (withoutUrls.length < MAX_BASE64_RUN) return withoutUrls;
  let out = '';
  let copied = 0;
  let start = nextLongRun(withoutUrls, 0);
  while (start >= 0) {
    const { end, padding, mixed } = runEnd(withoutUrls, start);
    // A run of one kind of character is text, unless a sibling field says it is media.
    if (mixed || mediaType !== undefined) {
      out += `${withoutUrls.slice(copied, start)}[${mediaType ?? sniff(withoutUrls, start)} ${sizeOf(end - start - padding, padding)}]`;
      copied = end;
    }
    start = nextLongRun(withoutUrls, end);
  }
  return copied === 0 ? withoutUrls : out + withoutUrls.slice(copied);
}

/** The media type a part says for its `data` (`{ type: 'base64', media_type, data }`, `{ mimeType, data }`, OpenAI's `input_audio`). */
function declaredType(object: Readonly<Record<string, unknown>>, parentKey: string | undefined): string | undefined {
  for (const name of MEDIA_TYPE_FIELDS) {
    const value = object[name];
    if (typeof value === 'string' && value !== '') return value.toLowerCase();
  }
  const format = object['format'];
  return parentKey === 'input_audio' && typeof format === 'string' ? `audio/${format.toLowerCase()}` : undefined;
}

function walk(value: unknown, mediaType: string | undefined, parentKey: string | undefined, depth: number): unknown {
  if (typeof value === 'string') return withoutMediaText(value, mediaType);
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const next = walk(item, undefined, parentKey, depth + 1);
      if (next !== item) (copy ??= value.slice())[index] = next;
    }
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  // `for…in`, not `Object.keys`: no array of the keys made for each object of every
  // interaction checked (~0.6 kB of garbage a conversation); the objects walked are JSON
  // values, so no inherited key is enumerable, and `hasOwn` says so for any other.
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const field = object[key];
    const next = walk(field, key === 'data' ? declaredType(object, parentKey) : undefined, key, depth + 1);
    if (next !== field) (copy ??= { ...object })[key] = next;
  }
  return copy ?? value;
}

/**
 * A wire body (or part of one) without media: every string of it through
 * {@link withoutMediaText}, the media type taken from the part that holds a `data` field
 * when it says one. Objects and arrays are copied only along the paths that changed; the
 * value itself when nothing did. Never throws on plain JSON values.
 *
 * @example
 * ```ts
 * withoutMedia({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
 * // { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '[image/png 704 kB]' } }
 * ```
 */
export function withoutMedia<T>(value: T): T {
  return walk(value, undefined, undefined, 0) as T;
}
