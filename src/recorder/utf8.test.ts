import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from './utf8.js';

describe('utf8ByteLength', () => {
  it.each(['', 'ascii only', 'è', '€uro', '日本語', '😀 emoji', 'mixed ü€😀 text', '\u0000\u007f\u0080\u07ff\u0800\uffff'])(
    'matches TextEncoder for %j',
    (text) => {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
    },
  );

  it('counts a lone surrogate as the 3-byte replacement character', () => {
    expect(utf8ByteLength('a\ud800b')).toBe(new TextEncoder().encode('a\ud800b').length);
    expect(utf8ByteLength('\udc00')).toBe(3);
  });
});
