import { describe, expect, it } from 'vitest';
import { MAX_BASE64_RUN, withoutMedia, withoutMediaText } from './media.js';

describe('withoutMediaText', () => {
  it('keeps text, short runs and http(s) URLs as they are (the same string)', () => {
    const text = `${'word '.repeat(400)} https://example.test/a.png ${'x'.repeat(MAX_BASE64_RUN - 1)}`;
    expect(withoutMediaText(text)).toBe(text);
  });

  it('replaces a data URL of any length, and a bare run from 1 kB', () => {
    expect(withoutMediaText('a data:image/gif;base64,R0lGODlhAQABAAAAACw= b')).toBe('a [image/gif 14 B] b');
    expect(withoutMediaText(`[${'Ab'.repeat(MAX_BASE64_RUN / 2)}]`)).toBe('[[application/octet-stream 768 B]]');
    // One kind of character is text: a rule of dashes, a placeholder of x's.
    const rule = '-'.repeat(5000);
    expect(withoutMediaText(rule)).toBe(rule);
    // Unless the part it is in says it is media.
    expect(withoutMediaText('A'.repeat(MAX_BASE64_RUN), 'image/png')).toBe('[image/png 768 B]');
    expect(withoutMediaText('data: not a URL')).toBe('data: not a URL');
  });

  it('scans a long text of many near-threshold runs in linear time', () => {
    const text = `${'Q'.repeat(MAX_BASE64_RUN - 1)} `.repeat(2000);
    expect(withoutMediaText(text)).toBe(text);
  });
});

describe('withoutMedia', () => {
  it('returns the very value when nothing changed, and copies only what did', () => {
    const unchanged = { messages: [{ role: 'user', content: 'Hi' }] };
    expect(withoutMedia(unchanged)).toBe(unchanged);
    const part = { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'U'.repeat(2000) } };
    const body = { keep: unchanged, parts: [part] };
    const cleaned = withoutMedia(body);
    expect(cleaned.keep).toBe(unchanged);
    expect(cleaned.parts[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: '[image/webp 2 kB]' } });
    expect(part.source.data).toHaveLength(2000);
  });
});
