import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './token-bytes.js';
import { FeedbackTokens } from './tokens.js';

const SECRET = 'a'.repeat(16) + 'feedback-secret-of-32+';
const OTHER = 'b'.repeat(16) + 'feedback-secret-of-32+';
const NOW = Date.parse('2026-05-01T10:00:00Z');
const LATER = Math.ceil(NOW / 1000) + 3600;
const UUID_A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const UUID_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** The token's bytes, changed by `change`, spelt again as a token. */
function altered(token: string, change: (bytes: Uint8Array) => void): string {
  const bytes = fromBase64Url(token)!;
  change(bytes);
  return toBase64Url(bytes);
}

describe('feedback tokens', () => {
  const tokens = new FeedbackTokens(SECRET);

  it('name their conversation, interaction and expiry, read back exactly, UUIDs and other ids alike', async () => {
    for (const [conversationId, interactionId] of [
      [UUID_A, UUID_B],
      ['chat-42', UUID_B],
      ['Chat ünïcode 💬', 'turn/1'],
      [UUID_A.toUpperCase(), 'x'],
    ] as const) {
      const token = await tokens.mint({ conversationId, interactionId, expiresAtSeconds: LATER });
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(await tokens.verify(token, NOW)).toEqual({ ok: true, claims: { conversationId, interactionId, expiresAtSeconds: LATER } });
    }
  });

  it('are short: two UUIDs make a 74-character token', async () => {
    expect(await tokens.mint({ conversationId: UUID_A, interactionId: UUID_B, expiresAtSeconds: LATER })).toHaveLength(74);
  });

  describe('attacks, each refused', () => {
    it('a forged signature: every single bit of the token flipped in turn', async () => {
      const token = await tokens.mint({ conversationId: 'chat-1', interactionId: UUID_B, expiresAtSeconds: LATER });
      const length = fromBase64Url(token)!.length;
      for (let bit = 0; bit < length * 8; bit += 1) {
        const forged = altered(token, (bytes) => void (bytes[bit >> 3]! ^= 1 << (bit & 7)));
        expect(await tokens.verify(forged, NOW), `bit ${bit}`).toMatchObject({ ok: false });
      }
    });

    it('a token moved to another interaction or conversation: the ids are signed', async () => {
      const mine = await tokens.mint({ conversationId: UUID_A, interactionId: UUID_B, expiresAtSeconds: LATER });
      const other = await tokens.mint({ conversationId: UUID_A, interactionId: UUID_A, expiresAtSeconds: LATER });
      // Same layout, so the other token's claims with my signature, and the reverse.
      const claimsLength = fromBase64Url(mine)!.length - 16;
      const swapped = altered(mine, (bytes) => bytes.set(fromBase64Url(other)!.subarray(0, claimsLength)));
      expect(await tokens.verify(swapped, NOW)).toEqual({ ok: false, reason: 'invalid' });
    });

    it('an expiry pushed later by hand', async () => {
      const token = await tokens.mint({ conversationId: 'c', interactionId: 'i', expiresAtSeconds: LATER });
      const extended = altered(token, (bytes) => new DataView(bytes.buffer).setUint32(1, LATER + 86_400));
      expect(await tokens.verify(extended, NOW)).toEqual({ ok: false, reason: 'invalid' });
    });

    it('an expired token, at its expiry and after', async () => {
      const token = await tokens.mint({ conversationId: 'c', interactionId: 'i', expiresAtSeconds: LATER });
      expect(await tokens.verify(token, LATER * 1000 - 1)).toMatchObject({ ok: true });
      expect(await tokens.verify(token, LATER * 1000)).toEqual({ ok: false, reason: 'expired' });
    });

    it('a token of another secret (another project or environment)', async () => {
      const foreign = await new FeedbackTokens(OTHER).mint({ conversationId: 'c', interactionId: 'i', expiresAtSeconds: LATER });
      expect(await tokens.verify(foreign, NOW)).toEqual({ ok: false, reason: 'invalid' });
    });

    it('garbage, an empty string, a cut token, another spelling of the same bytes, a huge string', async () => {
      const token = await tokens.mint({ conversationId: 'c', interactionId: 'i', expiresAtSeconds: LATER });
      // The last character carries unused low bits: another character decodes to the same bytes.
      const last = token.at(-1)!;
      const respelt = token.slice(0, -1) + (last === 'A' ? 'B' : 'A');
      const sameBytes = toBase64Url(fromBase64Url(respelt)!) === token;
      for (const bad of ['', 'x', '****', token.slice(0, -2), token + 'A', `${token}.`, 'A'.repeat(100_000), ...(sameBytes ? [respelt] : [])]) {
        expect(await tokens.verify(bad, NOW)).toEqual({ ok: false, reason: 'invalid' });
      }
    });
  });
});
