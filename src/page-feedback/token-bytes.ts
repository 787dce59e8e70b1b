// How a feedback token lays out what it names, in bytes: short enough to travel with
// each answer, and read back exactly. The signature is added by `tokens.ts`.

/** The layout's version: the first byte of every token. */
export const TOKEN_VERSION = 1;

/** An id is written as 16 bytes when it is a lowercase UUID (most are), else as its UTF-8 text. */
const ID_UUID = 1;
const ID_TEXT = 2;

/** The longest id a token carries, in UTF-8 bytes: the ids are the caller's, the token must stay short. */
export const MAX_ID_BYTES = 512;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a token names. */
export interface TokenClaims {
  readonly conversationId: string;
  readonly interactionId: string;
  /** When it stops being accepted, in whole seconds since the epoch. */
  readonly expiresAtSeconds: number;
}

function idBytes(id: string): Uint8Array {
  if (UUID.test(id)) {
    const bytes = new Uint8Array(17);
    bytes[0] = ID_UUID;
    const hex = id.replaceAll('-', '');
    for (let index = 0; index < 16; index += 1) bytes[index + 1] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
    return bytes;
  }
  const text = new TextEncoder().encode(id);
  if (text.length > MAX_ID_BYTES) throw new RangeError(`is longer than ${MAX_ID_BYTES} bytes`);
  const bytes = new Uint8Array(3 + text.length);
  bytes[0] = ID_TEXT;
  bytes[1] = text.length >> 8;
  bytes[2] = text.length & 0xff;
  bytes.set(text, 3);
  return bytes;
}

/**
 * The claims as bytes: version, expiry (4 bytes, seconds: until 2106), then each id.
 *
 * @throws RangeError when an id is longer than {@link MAX_ID_BYTES}.
 * @example
 * ```ts
 * const payload = encodeClaims({ conversationId: 'chat-1', interactionId: turn.id, expiresAtSeconds: 1_800_000_000 });
 * ```
 */
export function encodeClaims(claims: TokenClaims): Uint8Array {
  const conversation = idBytes(claims.conversationId);
  const interaction = idBytes(claims.interactionId);
  const bytes = new Uint8Array(5 + conversation.length + interaction.length);
  bytes[0] = TOKEN_VERSION;
  new DataView(bytes.buffer).setUint32(1, claims.expiresAtSeconds);
  bytes.set(conversation, 5);
  bytes.set(interaction, 5 + conversation.length);
  return bytes;
}

/** Reads one id at `at`: the id and where the next field starts, or `undefined` when the bytes do not hold one. */
function readId(bytes: Uint8Array, at: number): { id: string; next: number } | undefined {
  const kind = bytes[at];
  if (kind === ID_UUID && at + 17 <= bytes.length) {
    let hex = '';
    for (let index = 1; index <= 16; index += 1) hex += (bytes[at + index] as number).toString(16).padStart(2, '0');
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return { id, next: at + 17 };
  }
  if (kind === ID_TEXT && at + 3 <= bytes.length) {
    const length = ((bytes[at + 1] as number) << 8) | (bytes[at + 2] as number);
    if (length === 0 || length > MAX_ID_BYTES || at + 3 + length > bytes.length) return undefined;
    try {
      return { id: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at + 3, at + 3 + length)), next: at + 3 + length };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The claims back from {@link encodeClaims}'s bytes; `undefined` unless they are exactly
 * one token's claims of this version.
 *
 * @example
 * ```ts
 * const claims = decodeClaims(payload); // { conversationId: 'chat-1', interactionId, expiresAtSeconds }
 * ```
 */
export function decodeClaims(bytes: Uint8Array): TokenClaims | undefined {
  if (bytes.length < 5 || bytes[0] !== TOKEN_VERSION) return undefined;
  const expiresAtSeconds = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
  const conversation = readId(bytes, 5);
  if (conversation === undefined) return undefined;
  const interaction = readId(bytes, conversation.next);
  if (interaction === undefined || interaction.next !== bytes.length) return undefined;
  return { conversationId: conversation.id, interactionId: interaction.id, expiresAtSeconds };
}

/** Bytes as base64url, without padding: what travels in JSON and URLs unescaped. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** base64url back to bytes; `undefined` for any other text. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
