import { decodeClaims, encodeClaims, fromBase64Url, toBase64Url, type TokenClaims } from './token-bytes.js';

/** The signature's length in bytes: HMAC-SHA-256 cut to 128 bits (RFC 2104 allows half), to keep the token short. */
const SIGNATURE_BYTES = 16;

/** Signed before the claims, so that an HMAC this secret makes for any other purpose is never a token. */
const CONTEXT = new TextEncoder().encode('nebuly-client feedback token\n');

/** The longest token read: anything longer is refused before any work. */
export const MAX_TOKEN_LENGTH = 2048;

/** What {@link FeedbackTokens.verify} found: the claims, or why the token is refused. */
export type Verified = { ok: true; claims: TokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

/** Compares two byte arrays in time that depends on their length only. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a[index] as number) ^ (b[index] as number);
  return difference === 0;
}

/**
 * Mints and verifies feedback tokens: the claims (which interaction, until when) and an
 * HMAC-SHA-256 of them under `feedbackSecret`, through Web Crypto (Node, Bun, Deno,
 * workers and browsers all have it). A token cannot be altered (any change breaks the
 * signature), moved to another interaction (the ids are signed), or verified with another
 * secret. The secret is imported once as a non-extractable key and not kept here.
 *
 * @example
 * ```ts
 * const tokens = new FeedbackTokens(secret);
 * const token = await tokens.mint({ conversationId: 'chat-1', interactionId: turn.id, expiresAtSeconds });
 * const verified = await tokens.verify(token, Date.now()); // { ok: true, claims }
 * ```
 */
export class FeedbackTokens {
  readonly #key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.#key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // Awaited by every use; this keeps an import that fails from being reported unhandled meanwhile.
    this.#key.catch(() => undefined);
  }

  /**
   * A token naming `claims`.
   * @throws RangeError when an id is longer than 512 bytes.
   */
  async mint(claims: TokenClaims): Promise<string> {
    const payload = encodeClaims(claims);
    const signature = await this.#sign(payload);
    const token = new Uint8Array(payload.length + SIGNATURE_BYTES);
    token.set(payload);
    token.set(signature, payload.length);
    return toBase64Url(token);
  }

  /**
   * The claims of `token` if this secret signed it and it has not expired at `now` (ms
   * since the epoch); else why not. Never throws.
   */
  async verify(token: string, now: number): Promise<Verified> {
    if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid' };
    const bytes = fromBase64Url(token);
    // Only the one canonical spelling: another that decodes to the same bytes is not the token given out.
    if (bytes === undefined || bytes.length <= SIGNATURE_BYTES || toBase64Url(bytes) !== token) return { ok: false, reason: 'invalid' };
    const payload = bytes.subarray(0, bytes.length - SIGNATURE_BYTES);
    const signature = bytes.subarray(bytes.length - SIGNATURE_BYTES);
    let expected: Uint8Array;
    try {
      expected = await this.#sign(payload);
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (!sameBytes(expected, signature)) return { ok: false, reason: 'invalid' };
    const claims = decodeClaims(payload);
    if (claims === undefined) return { ok: false, reason: 'invalid' };
    if (claims.expiresAtSeconds * 1000 <= now) return { ok: false, reason: 'expired' };
    return { ok: true, claims };
  }

  async #sign(payload: Uint8Array): Promise<Uint8Array> {
    const message = new Uint8Array(CONTEXT.length + payload.length);
    message.set(CONTEXT);
    message.set(payload, CONTEXT.length);
    const mac = await crypto.subtle.sign('HMAC', await this.#key, message);
    return new Uint8Array(mac, 0, SIGNATURE_BYTES);
  }
}
