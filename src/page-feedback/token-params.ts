import { NebulyError, ValidationError } from '../core/nebuly-error.js';
import type { FeedbackTokenParams } from '../core/feedback-options.js';
import type { Issue } from '../utils/issues.js';
import { MAX_ID_BYTES, type TokenClaims } from './token-bytes.js';

const MIN_TTL_MS = 1000;

/** How long a feedback token is accepted when `ttlMs` is not given: a day, as long as `recorder.feedbackRetentionMs` keeps a sent interaction by default. */
export const DEFAULT_FEEDBACK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The longest `ttlMs`: 30 days. A token is a bearer credential; it should not outlive its use. */
export const MAX_FEEDBACK_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The error of minting or receiving a feedback token without `feedbackSecret`, naming
 * the `call` made.
 *
 * @example
 * ```ts
 * if (secret === undefined) throw noFeedbackSecret('nebuly.feedbackToken()');
 * ```
 */
export function noFeedbackSecret(call: string): NebulyError {
  return new NebulyError(
    `nebuly-client: ${call} needs a \`feedbackSecret\`: pass one of 32 characters or more to \`new NebulyClient()\` ` +
      'or set NEBULY_FEEDBACK_SECRET (make one with `openssl rand -hex 32`), the same in every instance.',
  );
}

/** Reads `params[name]`, or `undefined` after noting that it could not be read. */
function field(params: unknown, name: string, issues: Issue[]): unknown {
  try {
    return (params as Record<string, unknown>)[name];
  } catch {
    issues.push({ path: [name], message: 'could not be read (a getter or Proxy threw)', code: 'custom' });
    return undefined;
  }
}

/**
 * The claims a token for `params` carries, its expiry `ttlMs` (24 h by default) after
 * `now`, rounded up to the second.
 *
 * @throws ValidationError naming each bad field: an id that is not a non-empty string
 * of at most 512 bytes, a `ttlMs` that is not a whole number from 1 s to 30 days.
 * @example
 * ```ts
 * const claims = tokenClaims({ conversation_id: 'chat-1', interaction_id: turnId }, Date.now());
 * ```
 */
export function tokenClaims(params: FeedbackTokenParams, now: number): TokenClaims {
  const issues: Issue[] = [];
  if (typeof params !== 'object' || params === null) {
    throw new ValidationError([{ path: [], message: 'must be an object', code: 'invalid_type' }], 'nebuly.feedbackToken() params');
  }
  const ids: string[] = [];
  for (const name of ['conversation_id', 'interaction_id']) {
    const value = field(params, name, issues);
    if (typeof value !== 'string' || value.trim() === '') issues.push({ path: [name], message: 'must be a non-empty string', code: 'invalid_type' });
    else if (new TextEncoder().encode(value).length > MAX_ID_BYTES) issues.push({ path: [name], message: `must be at most ${MAX_ID_BYTES} bytes`, code: 'too_big' });
    else ids.push(value);
  }
  const ttl = field(params, 'ttlMs', issues) ?? DEFAULT_FEEDBACK_TOKEN_TTL_MS;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < MIN_TTL_MS || ttl > MAX_FEEDBACK_TOKEN_TTL_MS) {
    issues.push({ path: ['ttlMs'], message: `must be a whole number of milliseconds from ${MIN_TTL_MS} to ${MAX_FEEDBACK_TOKEN_TTL_MS} (30 days)`, code: 'custom' });
  }
  if (issues.length > 0) throw new ValidationError(issues, 'nebuly.feedbackToken() params');
  return { conversationId: ids[0] as string, interactionId: ids[1] as string, expiresAtSeconds: Math.ceil((now + (ttl as number)) / 1000) };
}
