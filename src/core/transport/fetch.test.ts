import { describe, expect, it } from 'vitest';
import { wireResponseOf } from './fetch.js';

describe('wireResponseOf', () => {
  it('reads a response whole: status, headers by lower-case name, body text', async () => {
    const response = new Response('{"detail":"slow down"}', { status: 429, headers: { 'Retry-After': '2', 'Content-Type': 'application/json' } });
    await expect(wireResponseOf(response)).resolves.toEqual({
      status: 429,
      headers: { 'retry-after': '2', 'content-type': 'application/json' },
      text: '{"detail":"slow down"}',
      redirected: false,
    });
  });

  it('gives a response without a body the empty text, as reading it would', async () => {
    await expect(wireResponseOf(new Response(null, { status: 202 }))).resolves.toEqual({ status: 202, headers: {}, text: '', redirected: false });
    await expect(wireResponseOf(new Response('', { status: 200 }))).resolves.toMatchObject({ text: '' });
  });
});
