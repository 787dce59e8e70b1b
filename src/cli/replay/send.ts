import { createHash } from 'node:crypto';
import type { NebulyClient } from '../../client.js';
import { APIError, AuthenticationError, PermissionDeniedError } from '../../core/errors.js';
import type { SendConversationParams, SendFeedbackParams, SendInteractionParams } from '../../schemas/index.js';
import type { AddTagsParams } from '../../types/index.js';
import type { DeadLetter } from '../../utils/dead-letter-line.js';
import { concernsThisRequestOnly, describeError } from '../failure.js';

/** What became of one record. */
export type Outcome =
  | { kind: 'delivered' }
  /** Refused for what it holds (4xx, invalid): set aside, never retried as is. */
  | { kind: 'rejected'; reason: string }
  /** Failed for now (5xx, 429, no answer): kept for the next replay. */
  | { kind: 'transient'; reason: string }
  /** Would fail every record alike (bad key, wrong host): the replay stops. */
  | { kind: 'fatal'; reason: string };

/**
 * The key a record is resent with: its own, or, for a line of the first format, one
 * derived from the line, so that every replay of that line sends the same key.
 */
export function keyOf(letter: DeadLetter, line: string): string {
  return letter.idempotencyKey ?? `dead-letter-${createHash('sha256').update(line).digest('hex').slice(0, 32)}`;
}

/** Sends a record's body to the endpoint its shape names, under `key`. */
async function sendBody(client: NebulyClient, body: Record<string, unknown>, key: string): Promise<boolean> {
  const options = { headers: { 'idempotency-key': key } };
  if (Object.hasOwn(body, 'conversation')) await client.conversations.send(body as unknown as SendConversationParams, options);
  else if (Object.hasOwn(body, 'interaction')) await client.interactions.send(body as unknown as SendInteractionParams, options);
  // Tags and feedback both name their interaction by `metadata`: tags have `tags`.
  else if (Object.hasOwn(body, 'tags') && Object.hasOwn(body, 'metadata')) await client.interactions.addTags(body as unknown as AddTagsParams, options);
  else if (Object.hasOwn(body, 'metadata')) await client.interactions.sendFeedback(body as unknown as SendFeedbackParams, options);
  else return false;
  return true;
}

/** Resends one record and says what became of it. Never throws. */
export async function resend(client: NebulyClient, letter: DeadLetter, key: string, host: string): Promise<Outcome> {
  try {
    const sent = await sendBody(client, letter.body as Record<string, unknown>, key);
    return sent ? { kind: 'delivered' } : { kind: 'rejected', reason: 'not the body of a conversation, interaction, feedback or tags' };
  } catch (error) {
    const reason = describeError(error, host);
    if (concernsThisRequestOnly(error)) return { kind: 'rejected', reason };
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return { kind: 'fatal', reason };
    // Another 4xx (404, 405, …) says the host is not the service: every record would fail so.
    if (error instanceof APIError && error.status < 500 && error.status !== 408 && error.status !== 429) return { kind: 'fatal', reason };
    return { kind: 'transient', reason };
  }
}
