import {
  CONVERSATION_FIELDS,
  CONVERSATION_INTERACTION_FIELDS,
  EMBEDDING_STEP_FIELDS,
  FEEDBACK_ACTION_FIELDS,
  LLM_STEP_FIELDS,
  MESSAGE_FIELDS,
  RETRIEVAL_STEP_FIELDS,
  type WireFields,
} from '../schemas/wire-fields.js';
import { utf8ByteLength } from './utf8.js';

let identifyingKeys: ReadonlySet<string> | undefined;

/**
 * The string fields that identify rather than carry content: cropping them would make the
 * conversation invalid or meaningless, and they are short anyway. They are the fields of
 * the conversation's wire schemas that are identifiers, enums or timestamps (`end_user`,
 * `model`, `source`, `role`, `slug`, `time_start`, `time_end`), and `type`, which names
 * the kind of a free-form content part. Found on the first crop: most conversations fit.
 */
export function keptKeys(): ReadonlySet<string> {
  if (identifyingKeys !== undefined) return identifyingKeys;
  const objects: WireFields[] = [
    CONVERSATION_FIELDS,
    CONVERSATION_INTERACTION_FIELDS,
    LLM_STEP_FIELDS,
    RETRIEVAL_STEP_FIELDS,
    EMBEDDING_STEP_FIELDS,
    MESSAGE_FIELDS,
    FEEDBACK_ACTION_FIELDS,
  ];
  const kept = new Set(['type']);
  for (const fields of objects) {
    for (const [key, kind] of Object.entries(fields)) if (kind === 'id') kept.add(key);
  }
  identifyingKeys = kept;
  return kept;
}

/** The visible end of a cropped string. */
export function cropMarker(removedChars: number): string {
  return `… [cropped ${removedChars} chars]`;
}

/** What {@link cropMarker} adds around the number. */
const MARKER_FRAME_LENGTH = cropMarker(0).length - 1;

/**
 * `cropMarker(removedChars).length`, without making the string: fitting asks it of every
 * string of a conversation at once (a whole integer ≥ 0).
 *
 * @example
 * ```ts
 * cropMarkerLength(1234) === cropMarker(1234).length; // true
 * ```
 */
export function cropMarkerLength(removedChars: number): number {
  let digits = 1;
  for (let rest = removedChars; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  return MARKER_FRAME_LENGTH + digits;
}

/** Printable ASCII that JSON does not escape: one byte each on the wire. */
const NEEDS_COUNTING = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * What the code unit at `index` of `text` costs inside a JSON string, in UTF-8 bytes, as
 * `JSON.stringify` writes it; a surrogate pair is counted on its first half (4) and its
 * second half costs 0.
 */
function charBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = text.charCodeAt(index + 1);
    return low >= 0xdc00 && low <= 0xdfff ? 4 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const high = text.charCodeAt(index - 1);
    return index > 0 && high >= 0xd800 && high <= 0xdbff ? 0 : 6;
  }
  return 3;
}

/**
 * The length of `text` in a JSON document, in UTF-8 bytes, without its quotes: escapes
 * (`\"`, `\n`, `\u0001`, a lone surrogate as `\ud800`) and multi-byte characters
 * included. Equal to `text.length` for printable ASCII, the common case, found by one
 * native scan.
 */
export function jsonStringBytes(text: string): number {
  if (!NEEDS_COUNTING.test(text)) return text.length;
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) bytes += charBytes(text, index);
  return bytes;
}

/**
 * The longest start of `text` that takes at most `level` bytes in JSON, never half a
 * surrogate pair, and the marker; `text` itself when it fits in `level` bytes whole, or
 * when cropping would not make it shorter.
 *
 * @example
 * ```ts
 * cropString('a'.repeat(100), 10); // 'aaaaaaaaaa… [cropped 90 chars]'
 * ```
 */
export function cropString(text: string, level: number): string {
  // A string no longer than `level` bytes even at the most a code unit can take in JSON
  // (6, as `\u0001`) is kept whole without looking at it.
  if (text.length * 6 <= level) return text;
  // Only the start that can be kept is read: a 50 MiB string costs what `level` does.
  let end: number;
  let kept: number;
  if (!NEEDS_COUNTING.test(text.slice(0, level + 1))) {
    if (text.length <= level) return text;
    end = level;
    kept = level;
  } else {
    end = 0;
    kept = 0;
    while (end < text.length) {
      const cost = charBytes(text, end);
      // A pair's high half carries the pair's 4 bytes, so a pair is kept whole or not at all.
      const width = cost === 4 ? 2 : 1;
      if (kept + cost > level) break;
      kept += cost;
      end += width;
    }
    if (end >= text.length) return text;
  }
  const marker = cropMarker(text.length - end);
  // A marker can be longer than what it replaces, for a string just over the level; what
  // is cut costs at least a byte per two code units.
  if (utf8ByteLength(marker) >= Math.ceil((text.length - end) / 2)) return text;
  return text.slice(0, end) + marker;
}
