import { utf8ByteLength } from './utf8.js';

/**
 * String fields that identify rather than carry content: cropping them would make the
 * conversation invalid or meaningless, and they are short anyway.
 */
const KEPT_KEYS = new Set(['end_user', 'time_start', 'time_end', 'role', 'model', 'source', 'slug', 'type']);

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
 * @param json `JSON.stringify(value)`, when the caller has it already.
 */
export function cropToFit(value: unknown, maxBytes: number, json = JSON.stringify(value)): CropResult {
  const bytes = utf8ByteLength(json);
  if (bytes <= maxBytes) return { json, bytes, croppedStrings: 0, fits: true };

  const lengths: number[] = [];
  collectLengths(value, undefined, lengths);
  lengths.sort((a, b) => b - a);

  // Cutting k code units saves at least k bytes (each is 1 to 3 bytes in UTF-8, or more
  // once JSON-escaped), so a level computed in code units over-crops a little rather than
  // too little; when markers or escapes still leave it too large, aim lower and retry.
  let excess = bytes - maxBytes;
  let result: CropResult = { json, bytes, croppedStrings: 0, fits: false };
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const level = pass === MAX_PASSES - 1 ? 0 : cropLevel(lengths, excess);
    const counter = { cropped: 0 };
    const croppedJson = JSON.stringify(cropStrings(value, undefined, level, counter));
    const croppedBytes = utf8ByteLength(croppedJson);
    result = { json: croppedJson, bytes: croppedBytes, croppedStrings: counter.cropped, fits: croppedBytes <= maxBytes };
    if (result.fits || level === 0) break;
    excess += croppedBytes - maxBytes;
  }
  return result;
}

/**
 * The longest length L such that cropping every string longer than L down to L (plus its
 * marker) saves at least `excess` code units: the longest strings are cut first, and
 * evenly, so that no one field loses everything while others stay whole. `lengths` is
 * sorted longest first.
 */
export function cropLevel(lengths: readonly number[], excess: number): number {
  let total = 0;
  for (let k = 1; k <= lengths.length; k += 1) {
    const length = lengths[k - 1] ?? 0;
    total += length - utf8ByteLength(cropMarker(length));
    const level = Math.floor((total - excess) / k);
    const next = lengths[k] ?? 0;
    if (level >= next) return Math.max(0, level);
  }
  return 0;
}

function collectLengths(value: unknown, key: string | undefined, out: number[]): void {
  if (typeof value === 'string') {
    if (key === undefined || !KEPT_KEYS.has(key)) out.push(value.length);
  } else if (Array.isArray(value)) {
    for (const item of value) collectLengths(item, key, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [childKey, child] of Object.entries(value)) collectLengths(child, childKey, out);
  }
}

function cropStrings(value: unknown, key: string | undefined, level: number, counter: { cropped: number }): unknown {
  if (typeof value === 'string') {
    if (value.length <= level || (key !== undefined && KEPT_KEYS.has(key))) return value;
    const cropped = cropString(value, level);
    if (cropped.length >= value.length) return value;
    counter.cropped += 1;
    return cropped;
  }
  if (Array.isArray(value)) return value.map((item) => cropStrings(item, key, level, counter));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [childKey, child] of Object.entries(value)) copy[childKey] = cropStrings(child, childKey, level, counter);
    return copy;
  }
  return value;
}

/** The first `keep` code units of `text`, never half a surrogate pair, and the marker. */
function cropString(text: string, keep: number): string {
  let end = keep;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + cropMarker(text.length - end);
}
