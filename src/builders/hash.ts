import { NebulyError, ValidationError } from '../core/nebuly-error.js';
import type { Issue } from '../utils/issues.js';

/** Options of {@link hashEndUser}. */
export interface HashEndUserOptions {
  /**
   * A secret of your application, prepended to the id before hashing, so that the digest
   * of a guessable id (an e-mail address) cannot be found by hashing guesses. Keep it
   * stable: another salt gives another `end_user`.
   */
  salt?: string | undefined;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * The lowercase hex SHA-256 digest of `salt + id` (UTF-8), computed with Web Crypto: an
 * `end_user` that identifies a user to you but tells the service nothing about them, as
 * the spec advises. The same id and salt always give the same digest, in any language
 * (`sha256(salt + id)`).
 *
 * @returns 64 hex characters.
 * @throws ValidationError (as a rejected promise) when `id` is not a non-empty string or
 * `salt` not a string; NebulyError when the runtime has no Web Crypto.
 *
 * @example
 * ```ts
 * const end_user = await hashEndUser('alice@example.com', { salt: process.env.END_USER_SALT });
 * const conversation = nebuly.startConversation({ end_user });
 * ```
 */
export async function hashEndUser(id: string, options: HashEndUserOptions = {}): Promise<string> {
  const issues: Issue[] = [];
  if (typeof id !== 'string' || id === '') {
    issues.push({ path: ['id'], message: 'must be a non-empty string', code: 'custom' });
  }
  // Read with care: `null` options or a throwing getter must reject as ValidationError.
  let salt: unknown = '';
  if (typeof options === 'object' && options !== null) {
    try {
      salt = options.salt ?? '';
    } catch {
      issues.push({ path: ['salt'], message: 'could not be read (a getter or Proxy threw)', code: 'custom' });
    }
  } else if (options !== undefined) {
    issues.push({ path: ['options'], message: 'must be an object', code: 'invalid_type' });
  }
  if (typeof salt !== 'string') {
    issues.push({ path: ['salt'], message: 'must be a string', code: 'invalid_type' });
  }
  if (issues.length > 0 || typeof salt !== 'string') throw new ValidationError(issues, 'argument');

  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new NebulyError(
      'hashEndUser needs Web Crypto (globalThis.crypto.subtle): Node 20+, Bun, Deno, workers, or a browser page served over HTTPS',
    );
  }
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(salt + id)));
  let hex = '';
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
