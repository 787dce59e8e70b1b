import type { ResolvedPrivacyOptions } from '../core/privacy-options.js';
import { type SipKey, sipHash24 } from './siphash.js';

const encoder = new TextEncoder();

// Two fixed keys that turn a `sampleKey` of any length into the 128 bits SipHash takes:
// each hashes the key's bytes to one half. Changing them would reshuffle every sample.
const DERIVE_K0: SipKey = new Uint32Array([0x6e656275, 0x6c792d73, 0x616d706c, 0x652d6b30]); // "nebuly-sample-k0"
const DERIVE_K1: SipKey = new Uint32Array([0x6e656275, 0x6c792d73, 0x616d706c, 0x652d6b31]); // "nebuly-sample-k1"

/**
 * The SipHash key of a `sampleKey`: SipHash-2-4 of its UTF-8 bytes under two fixed keys,
 * one for each half. Any string gives a key; two strings, two unrelated keys.
 *
 * @example
 * ```ts
 * const key = sipKeyOf('nebuly-sample-v1');
 * ```
 */
export function sipKeyOf(sampleKey: string): SipKey {
  const bytes = encoder.encode(sampleKey);
  return new Uint32Array([...sipHash24(DERIVE_K0, bytes), ...sipHash24(DERIVE_K1, bytes)]);
}

/**
 * Whether `endUser` is in the sample: the top 53 bits of SipHash-2-4 of its UTF-8 bytes
 * under `key`, read as a fraction of 1, are below `rate`. The same user, rate and key give
 * the same answer in every process and runtime, so a user is kept or dropped whole; a
 * higher rate keeps every user a lower one kept.
 *
 * @example
 * ```ts
 * isSampled('user-hash-1', 0.25, sipKeyOf('nebuly-sample-v1')); // true for about 1 user in 4
 * ```
 */
export function isSampled(endUser: string, rate: number, key: SipKey): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const [high, low] = sipHash24(key, encoder.encode(endUser));
  return (high * 2 ** 21 + (low >>> 11)) / 2 ** 53 < rate;
}

/**
 * The sampling decision of a client's options, its key derived once: what the recorder
 * asks at `startConversation`. With `sampleRate` 1 (the default) it hashes nothing.
 *
 * @example
 * ```ts
 * const sampled = createSampler(resolved);
 * if (!sampled(params.end_user)) return droppedConversation; // nothing recorded, nothing sent
 * ```
 */
export function createSampler({ sampleRate, sampleKey }: Pick<ResolvedPrivacyOptions, 'sampleRate' | 'sampleKey'>): (endUser: string) => boolean {
  if (sampleRate >= 1) return () => true;
  if (sampleRate <= 0) return () => false;
  const key = sipKeyOf(sampleKey);
  return (endUser) => isSampled(endUser, sampleRate, key);
}
