import { nonEmptyString, timestamp } from '../schemas/common.js';
import { conversationInteractionSchema, sendConversationParamsSchema } from '../schemas/conversations.js';
import { conversationFeedbackActionSchema } from '../schemas/feedback.js';
import { embeddingStepSchema, llmStepSchema, messageSchema, retrievalStepSchema } from '../schemas/traces.js';
import { utf8ByteLength } from './utf8.js';

let identifyingKeys: ReadonlySet<string> | undefined;

/**
 * The string fields that identify rather than carry content: cropping them would make the
 * conversation invalid or meaningless, and they are short anyway. They are the fields of
 * the conversation's wire schemas that are identifiers, enums or timestamps (`end_user`,
 * `model`, `source`, `role`, `slug`, `time_start`, `time_end`), and `type`, which names
 * the kind of a free-form content part. Found on the first crop: most conversations fit.
 */
function keptKeys(): ReadonlySet<string> {
  if (identifyingKeys !== undefined) return identifyingKeys;
  const objects = [
    sendConversationParamsSchema.shape.conversation,
    conversationInteractionSchema,
    llmStepSchema,
    retrievalStepSchema,
    embeddingStepSchema,
    messageSchema,
    conversationFeedbackActionSchema,
  ];
  const kept = new Set(['type']);
  for (const { shape } of objects) {
    for (const [key, field] of Object.entries(shape)) {
      if (field === nonEmptyString || field === timestamp || field._zod.def.type === 'enum') kept.add(key);
    }
  }
  identifyingKeys = kept;
  return kept;
}

/** How many times the crop level is lowered before giving up; one pass nearly always fits. */
const MAX_PASSES = 12;

/** The visible end of a cropped string. */
export function cropMarker(removedChars: number): string {
  return `… [cropped ${removedChars} chars]`;
}

/** What {@link cropToFit} produced. */
export interface CropResult {
  /** The JSON, cropped or not. */
  json: string;
  /** Its length in UTF-8 bytes. */
  bytes: number;
  /** How many strings were cropped; `0` when the value already fitted. */
  croppedStrings: number;
  /** Whether `bytes <= maxBytes`; `false` only when cropping every content string was not enough. */
  fits: boolean;
}

/**
 * Serializes `value` as JSON no larger than `maxBytes` UTF-8 bytes by cropping its
 * longest content strings (inputs, outputs, message contents, retrieval outputs, …) to a
 * common length, each ending in a visible {@link cropMarker}. Strings shorter than that
 * length are kept whole, and so are identifying fields (`model`, `role`, timestamps, …).
 * `value` is not modified.
 *
 * Lengths are counted as they go on the wire: each string's JSON-escaped content in
 * UTF-8 bytes (see {@link jsonStringBytes}), so that the common length means the same
 * for ASCII, accented, CJK or escape-heavy text, and the excess it removes is the excess
 * measured. For printable ASCII that is the length in characters.
 *
 * @param json `JSON.stringify(value)`, when the caller has it already.
 */
export function cropToFit(value: unknown, maxBytes: number, json = JSON.stringify(value)): CropResult {
  const bytes = utf8ByteLength(json);
  if (bytes <= maxBytes) return { json, bytes, croppedStrings: 0, fits: true };

  const kept = keptKeys();
  const lengths: number[] = [];
  collectLengths(value, undefined, kept, lengths);
  lengths.sort((a, b) => b - a);

  // Each string cropped to `level` keeps at most `level` bytes of its serialized content
  // plus its marker, so the first pass fits whenever a level above 0 exists. The loop is
  // a safety net: should the result still be too large, aim lower and retry.
  let excess = bytes - maxBytes;
  let result: CropResult = { json, bytes, croppedStrings: 0, fits: false };
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const level = pass === MAX_PASSES - 1 ? 0 : cropLevel(lengths, excess);
    const counter = { cropped: 0 };
    const croppedJson = JSON.stringify(cropStrings(value, undefined, kept, level, counter));
    const croppedBytes = utf8ByteLength(croppedJson);
    result = { json: croppedJson, bytes: croppedBytes, croppedStrings: counter.cropped, fits: croppedBytes <= maxBytes };
    if (result.fits || level === 0) break;
    excess += croppedBytes - maxBytes;
  }
  return result;
}

/**
 * The longest length L such that cropping every string longer than L down to L (plus its
 * marker) saves at least `excess` bytes: the longest strings are cut first, and evenly,
 * so that no one field loses everything while others stay whole. `lengths` are the
 * strings' serialized lengths in bytes ({@link jsonStringBytes}), sorted longest first.
 */
export function cropLevel(lengths: readonly number[], excess: number): number {
  let total = 0;
  for (let k = 1; k <= lengths.length; k += 1) {
    const length = lengths[k - 1] ?? 0;
    // A string of `length` bytes has at most `length` characters: its marker is no longer than this.
    total += length - utf8ByteLength(cropMarker(length));
    const level = Math.floor((total - excess) / k);
    const next = lengths[k] ?? 0;
    if (level >= next) return Math.max(0, level);
  }
  return 0;
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

function collectLengths(value: unknown, key: string | undefined, kept: ReadonlySet<string>, out: number[]): void {
  if (typeof value === 'string') {
    if (key === undefined || !kept.has(key)) out.push(jsonStringBytes(value));
  } else if (Array.isArray(value)) {
    for (const item of value) collectLengths(item, key, kept, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [childKey, child] of Object.entries(value)) collectLengths(child, childKey, kept, out);
  }
}

function cropStrings(
  value: unknown,
  key: string | undefined,
  kept: ReadonlySet<string>,
  level: number,
  counter: { cropped: number },
): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && kept.has(key)) return value;
    const cropped = cropString(value, level);
    if (cropped === value) return value;
    counter.cropped += 1;
    return cropped;
  }
  if (Array.isArray(value)) return value.map((item) => cropStrings(item, key, kept, level, counter));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [childKey, child] of Object.entries(value)) copy[childKey] = cropStrings(child, childKey, kept, level, counter);
    return copy;
  }
  return value;
}

/**
 * The longest start of `text` that takes at most `level` bytes in JSON, never half a
 * surrogate pair, and the marker; `text` itself when it fits in `level` bytes whole, or
 * when cropping would not make it shorter.
 */
function cropString(text: string, level: number): string {
  let end: number;
  let kept: number;
  if (!NEEDS_COUNTING.test(text)) {
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
  // A marker can be longer than what it replaces, for a string just over the level.
  if (kept + utf8ByteLength(marker) >= jsonStringBytes(text)) return text;
  return text.slice(0, end) + marker;
}
