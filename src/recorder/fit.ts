import type { ConversationInteraction } from '../schemas/index.js';
import { cropMarkerLength, cropString, jsonStringBytes, keptKeys } from './crop.js';
import { LANE, pace, paced } from './worker.js';
import { utf8ByteLength } from './utf8.js';

/**
 * The shortest a content string is cropped to. Below it the text says nothing; whole
 * interactions are left out instead, the latest first.
 */
export const MIN_CROP_LEVEL = 32;

/** How many times the crop level is lowered after measuring what it gave; one nearly always fits. */
const MAX_CROPS = 4;

const encoder = /* @__PURE__ */ new TextEncoder();

/** A conversation's body as it goes on the wire, and what was taken out to fit it in `maxBytes`. */
export interface FittedBody {
  /** The JSON body in UTF-8, never longer than `maxBytes`. */
  body: Uint8Array;
  /** How many content strings were cropped; `0` when it fitted whole. */
  croppedStrings: number;
  /** How many interactions, the latest, were left out because cropping strings could not make it fit. */
  droppedInteractions: number;
  /** The body's JSON length in UTF-16 code units: `body.byteLength` when all of it is ASCII. */
  chars: number;
}

/**
 * A conversation that does not fit whole (see `crop: false`), and about how many
 * characters its JSON holds (an interaction too large on its own counted as the limit;
 * one whose strings alone are over the limit, those strings' characters).
 */
export interface TooLarge {
  tooLarge: true;
  chars: number;
}

/**
 * The most a conversation's strings may hold, in characters, and the most interactions
 * it may have, to be serialized in one call: well within a slice (~0.5 ms here).
 */
const ONE_GO_CHARS = 64 * 1024;
const ONE_GO_INTERACTIONS = 128;

/** What was measured of one interaction, before anything is serialized. */
interface Measured {
  readonly interaction: ConversationInteraction;
  /** Its JSON, when it was small enough to serialize at once. */
  json: string | undefined;
  /**
   * Its JSON's UTF-8 bytes, counted once the whole body is known not to fit; an estimate
   * (from its strings' lengths) while `json` is undefined.
   */
  bytes: number;
  /** Its longest content string, in bytes as measured; `0` until its strings are measured. */
  longest: number;
}

/**
 * Builds the bulk body `{ conversation: { end_user, interactions } }` no longer than
 * `maxBytes` UTF-8 bytes, in slices that leave the host's event loop free (see `pace`),
 * whatever the size: 1,000 interactions, or one of 50 MiB.
 *
 * A small conversation, as most are (at most `ONE_GO_INTERACTIONS` interactions whose
 * strings hold at most `ONE_GO_CHARS` characters), is serialized in one call, well within
 * a slice. A larger one is never serialized whole before it is known to fit: each content
 * string is measured (its length alone, for one longer than `maxBytes`: it will be
 * cropped anyway), each interaction small enough is serialized once, and the body is
 * their concatenation. When
 * that is too long, the longest content strings are cropped to one common length, found
 * from the measured lengths, and only the interactions that hold such a string are
 * serialized again. Should cropping every string to {@link MIN_CROP_LEVEL} not be enough
 * (thousands of short interactions), the latest interactions are left out. Identifying
 * fields (`model`, `role`, timestamps, …) are never cropped.
 *
 * @example
 * ```ts
 * const { body, croppedStrings, droppedInteractions } = await fitConversation('user-1', interactions, 500_000);
 * ```
 */
export async function fitConversation(
  endUser: string,
  interactions: readonly ConversationInteraction[],
  maxBytes: number,
): Promise<FittedBody>;
/**
 * With `crop: false`: the body only if it fits whole, else how many characters its JSON
 * holds, without cropping (a conversation that does not fit whole goes out interaction by
 * interaction).
 */
export async function fitConversation(
  endUser: string,
  interactions: readonly ConversationInteraction[],
  maxBytes: number,
  options: { crop: false },
): Promise<FittedBody | TooLarge>;
export async function fitConversation(
  endUser: string,
  interactions: readonly ConversationInteraction[],
  maxBytes: number,
  { crop = true }: { crop?: boolean } = {},
): Promise<FittedBody | TooLarge> {
  const small = fitSmall(endUser, interactions, maxBytes);
  if (small !== undefined) return small;
  // Its characters alone are more than the body may have bytes: it cannot fit whole, and
  // is not serialized to find that out (its JSON was megabytes of garbage, collected in
  // pauses of the host's loop, for a conversation then sent interaction by interaction).
  if (!crop) {
    // One walk for both: every character, and each interaction too large on its own
    // counted as the limit, as `serialize` counts it.
    let all = 0;
    let counted = 0;
    for (const interaction of interactions) {
      const chars = MAX_COUNTED - charsLeft(interaction, MAX_COUNTED);
      all += chars;
      counted += Math.min(maxBytes, chars);
    }
    if (all > maxBytes) return { tooLarge: true, chars: counted };
  }
  const head = `{"conversation":{"end_user":${JSON.stringify(endUser)},"interactions":[`;
  const tail = ']}}';
  const frame = utf8ByteLength(head) + tail.length;
  const measured: Measured[] = [];
  for (const interaction of interactions) {
    measured.push(serialize(interaction, maxBytes));
    // Most turns of the loop go on at once: an await would still cost each a microtask.
    const wait = pace(LANE.send);
    if (wait !== undefined) await wait;
  }
  const whole = wholeBody(head, measured, tail, maxBytes);
  if (whole !== undefined) return whole;
  for (const entry of measured) {
    if (entry.json === undefined) continue;
    entry.bytes = utf8ByteLength(entry.json);
    await paced(LANE.send);
  }
  let croppedStrings = 0;
  let total = frame + sizeOf(measured);
  if (!crop) {
    if (total <= maxBytes) return { ...bodyOf(head, measured, tail), croppedStrings, droppedInteractions: 0 };
    let chars = frame;
    for (const entry of measured) chars += entry.json?.length ?? maxBytes;
    return { tooLarge: true, chars };
  }
  // Most conversations fit: their strings are measured only when one does not.
  const lengths: number[] = [];
  if (total > maxBytes) {
    for (const entry of measured) {
      measureStrings(entry, maxBytes, lengths);
      await paced(LANE.send);
    }
    total = frame + sizeOf(measured);
  }
  // What cropping must save, measured from the strings' lengths: each pass that still does
  // not fit adds what it is over by, so the level found next is lower by that much.
  let excess = total - maxBytes;
  let level = Number.POSITIVE_INFINITY;
  for (let crop = 0; crop < MAX_CROPS && (total > maxBytes || measured.some((entry) => entry.json === undefined)); crop += 1) {
    level = Math.max(MIN_CROP_LEVEL, Math.min(level - 1, await cropLevel(lengths, Math.max(0, excess))));
    croppedStrings = 0;
    for (const entry of measured) {
      if (entry.longest > level) {
        const counter = { cropped: 0 };
        entry.json = JSON.stringify(cropped(entry.interaction, undefined, level, counter));
        entry.bytes = utf8ByteLength(entry.json);
        croppedStrings += counter.cropped;
        await paced(LANE.send);
      }
    }
    total = frame + sizeOf(measured);
    if (level === MIN_CROP_LEVEL) break;
    excess += total - maxBytes;
  }
  let kept = measured.length;
  while (total > maxBytes && kept > 0) {
    kept -= 1;
    total -= (measured[kept] as Measured).bytes + (kept > 0 ? 1 : 0);
  }
  return { ...bodyOf(head, measured.slice(0, kept), tail), croppedStrings, droppedInteractions: measured.length - kept };
}

/**
 * The body of a small conversation, as most are, serialized in one call: the same JSON
 * as the interactions' joined, without serializing each apart, joining them, and
 * copying the joined text again to encode it. `undefined` when it is not that small or
 * does not fit whole: {@link fitConversation} then builds it in slices. What
 * `fitConversation` gives such a conversation, without a promise: a caller that tries
 * this first awaits only for the others.
 *
 * @example
 * ```ts
 * const fitted = fitSmall('user-1', interactions, 500_000) ?? (await fitConversation('user-1', interactions, 500_000));
 * ```
 */
export function fitSmall(endUser: string, interactions: readonly ConversationInteraction[], maxBytes: number): FittedBody | undefined {
  if (interactions.length > ONE_GO_INTERACTIONS || charsOver(interactions, Math.min(maxBytes, ONE_GO_CHARS))) return undefined;
  const json = JSON.stringify({ conversation: { end_user: endUser, interactions } });
  if (json.length > maxBytes) return undefined;
  const body = encoder.encode(json);
  return body.byteLength <= maxBytes ? { body, chars: json.length, croppedStrings: 0, droppedInteractions: 0 } : undefined;
}

/** The bytes of the interactions joined by commas. */
function sizeOf(measured: readonly Measured[]): number {
  let bytes = Math.max(0, measured.length - 1);
  for (const entry of measured) bytes += entry.bytes;
  return bytes;
}

/**
 * Serializes one interaction, unless its strings alone are longer than a body that fits:
 * then it will be cropped, and serializing it whole would block the host for nothing.
 */
function serialize(interaction: ConversationInteraction, maxBytes: number): Measured {
  // Each character takes at least one byte, so more characters than `maxBytes` cannot fit.
  if (charsOver(interaction, maxBytes)) return { interaction, json: undefined, bytes: Number.POSITIVE_INFINITY, longest: 0 };
  // Its bytes are counted only if the whole body does not fit (see wholeBody).
  return { interaction, json: JSON.stringify(interaction), bytes: Number.NaN, longest: 0 };
}

/**
 * The body with every interaction whole, if it fits: most do, and encoding the body
 * tells its size at once, where counting each interaction's bytes first would read
 * every character twice. Not tried when its characters alone are over `maxBytes` (each
 * takes a byte at least): encoding it would block the host for nothing.
 */
function wholeBody(head: string, measured: readonly Measured[], tail: string, maxBytes: number): FittedBody | undefined {
  let chars = head.length + tail.length + Math.max(0, measured.length - 1);
  for (const entry of measured) {
    if (entry.json === undefined) return undefined;
    chars += entry.json.length;
  }
  if (chars > maxBytes) return undefined;
  const whole = bodyOf(head, measured, tail);
  return whole.body.byteLength <= maxBytes ? { ...whole, croppedStrings: 0, droppedInteractions: 0 } : undefined;
}

/** The bulk body of the serialized interactions `entries`, encoded, and its length in characters. */
function bodyOf(head: string, entries: readonly Measured[], tail: string): { body: Uint8Array; chars: number } {
  const json = head + entries.map((entry) => entry.json as string).join(',') + tail;
  return { body: encoder.encode(json), chars: json.length };
}

/**
 * Whether the strings of `value` hold more than `limit` characters; stops counting there.
 * A value whose strings hold more characters than a body may have bytes cannot fit, and
 * is not serialized whole.
 *
 * @example
 * ```ts
 * if (!charsOver(interaction, maxBytes)) body = JSON.stringify(interaction);
 * ```
 */
export function charsOver(value: unknown, limit: number): boolean {
  return charsLeft(value, limit) < 0;
}

/** A budget of {@link charsLeft} that counts every character: `MAX_COUNTED - charsLeft(value, MAX_COUNTED)` is how many `value`'s strings hold. */
const MAX_COUNTED = Number.MAX_SAFE_INTEGER;

/** `budget` less the characters of `value`'s strings, negative once over it (counting stops there); no closure made a call. */
function charsLeft(value: unknown, budget: number): number {
  if (typeof value === 'string') return budget - value.length;
  if (typeof value !== 'object' || value === null) return budget;
  let left = budget;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && left >= 0; index += 1) left = charsLeft(value[index], left);
    return left;
  }
  for (const key in value) {
    left = charsLeft((value as Record<string, unknown>)[key], left);
    if (left < 0) return left;
  }
  return left;
}

/**
 * Measures one interaction's content strings into `lengths`: its longest, and, for one
 * left unserialized, an estimate of its bytes from them.
 */
function measureStrings(entry: Measured, maxBytes: number, lengths: number[]): void {
  const from = lengths.length;
  collect(entry.interaction, undefined, (text) => {
    lengths.push(text.length > maxBytes ? text.length : jsonStringBytes(text));
  });
  let sum = 0;
  for (let index = from; index < lengths.length; index += 1) {
    const length = lengths[index] as number;
    sum += length;
    if (length > entry.longest) entry.longest = length;
  }
  if (entry.json === undefined) entry.bytes = sum + 256;
}

/** Calls `visit` with every content string of `value` (not the identifying fields). */
function collect(value: unknown, key: string | undefined, visit: (text: string) => void): void {
  if (typeof value === 'string') {
    if (key === undefined || !keptKeys().has(key)) visit(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, key, visit);
  } else if (typeof value === 'object' && value !== null) {
    for (const childKey of Object.keys(value)) collect((value as Record<string, unknown>)[childKey], childKey, visit);
  }
}

function cropped(value: unknown, key: string | undefined, level: number, counter: { cropped: number }): unknown {
  if (typeof value === 'string') {
    if (key !== undefined && keptKeys().has(key)) return value;
    const result = cropString(value, level);
    if (result !== value) counter.cropped += 1;
    return result;
  }
  if (Array.isArray(value)) return value.map((item) => cropped(item, key, level, counter));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const childKey of Object.keys(value)) {
      copy[childKey] = cropped((value as Record<string, unknown>)[childKey], childKey, level, counter);
    }
    return copy;
  }
  return value;
}

/**
 * The longest common length L such that cropping every string longer than L to L (plus its
 * marker) saves at least `excess` bytes, by bisection over L: each step is one pass over
 * the lengths, a slice of its own, so that a million strings never block the host.
 */
async function cropLevel(lengths: readonly number[], excess: number): Promise<number> {
  // Each string's marker, measured once: the bisection reads it many times.
  const markers = lengths.map(cropMarkerLength);
  const savedAt = (level: number): number => {
    let saved = 0;
    for (let index = 0; index < lengths.length; index += 1) {
      const length = lengths[index] as number;
      if (length > level) saved += length - level - (markers[index] as number);
    }
    return saved;
  };
  let low = 0;
  let high = 0;
  for (const length of lengths) if (length > high) high = length;
  // Invariant: cropping to `low` saves enough (or nothing can); to `high`, not.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (savedAt(middle) >= excess) low = middle;
    else high = middle;
    await paced(LANE.send);
  }
  return low;
}
