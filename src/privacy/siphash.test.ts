import { describe, expect, it } from 'vitest';
import { sipHash24 } from './siphash.js';

// The reference implementation's vectors (veorq/SipHash, vectors.h): key 00..0f, the
// message 00, 01, … of each length.
const VECTORS: Record<number, string> = {
  0: '726fdb47dd0e0e31',
  1: '74f839c593dc67fd',
  2: '0d6c8009d9a94f5a',
  3: '85676696d7fb7e2d',
  4: 'cf2794e0277187b7',
  5: '18765564cd99a68d',
  6: 'cbc9466e58fee3ce',
  7: 'ab0200f58b01d137',
  8: '93f5f5799a932462',
  9: '9e0082df0ba9e4b0',
  15: 'a129ca6149be45e5',
  16: '3f2acc7f57c29bdb',
  17: '699ae9f52cbe4794',
  63: '958a324ceb064572',
};

const KEY = new Uint32Array([0x07060504, 0x03020100, 0x0f0e0d0c, 0x0b0a0908]);
const MESSAGE = Uint8Array.from({ length: 64 }, (_, index) => index);

const hex = ([high, low]: [number, number]) => high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');

describe('sipHash24', () => {
  it.each(Object.entries(VECTORS))('gives the reference value for %s bytes', (length, expected) => {
    expect(hex(sipHash24(KEY, MESSAGE.subarray(0, Number(length))))).toBe(expected);
  });
});
