/**
 * `nebuly-client/anthropic`: an Anthropic client (@anthropic-ai/sdk 1) whose calls are
 * recorded in Nebuly. See docs/integrations.md.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { observeAnthropic } from 'nebuly-client/anthropic';
 *
 * const conversation = nebuly.startConversation({ end_user: userHash });
 * const client = observeAnthropic(new Anthropic(), { conversation });
 * ```
 *
 * @module nebuly-client/anthropic
 */
import { messagesObserver } from './anthropic/messages.js';
import { observeClient } from './provider/client-proxy.js';
import type { MethodObserver } from './provider/recording.js';
import { checkTarget, type NebulyTarget } from './target.js';

export { endConversation } from './interactions.js';
export { currentInteractionId } from './target.js';
export type { NebulyTarget } from './target.js';

/**
 * Returns `client`, observed: the same type and behaviour (results, errors, retries,
 * `.withResponse()`, streams and `messages.stream()`), with each `messages.create` call
 * (plain and streamed, and the `messages.stream()` / `messages.parse()` helpers that call
 * it) recorded in `target`. Streamed events reach you unchanged as they arrive; the step
 * is recorded when the stream ends, is aborted, or fails.
 *
 * Nothing is recorded in your way: a fault of the instrumentation goes to the Nebuly
 * client's `onError`, never into your promise or stream.
 *
 * @param target Where the calls go: `{ turn }`, `{ conversation }` or
 *   `{ nebuly, endUser, conversationId?, tags? }` (see {@link NebulyTarget}); left out,
 *   each call goes to the ambient target of `nebuly.withConversation()`.
 * @throws TypeError when `target` is given and is none of those, or `client` is not an object.
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { observeAnthropic } from 'nebuly-client/anthropic';
 *
 * const anthropic = observeAnthropic(new Anthropic(), { nebuly, endUser: userHash, conversationId: chatId });
 * const stream = anthropic.messages.stream({
 *   model: 'claude-sonnet-4-5',
 *   max_tokens: 1024,
 *   messages: [{ role: 'user', content: 'Where is my order?' }],
 * });
 * for await (const event of stream) render(event);
 * // The call is one interaction of conversation `chatId`, with its LLM step.
 * ```
 */
export function observeAnthropic<Client extends object>(client: Client, target?: NebulyTarget): Client {
  if (typeof client !== 'object' || client === null) {
    throw new TypeError('nebuly-client: observeAnthropic(client, target): `client` must be an Anthropic client.');
  }
  const checked = checkTarget(target);
  const methods = new Map<string, MethodObserver>([['messages.create', messagesObserver]]);
  const observe = (next: object): object => observeClient(next, checked, methods, '@anthropic-ai/sdk', observe);
  return observeClient(client, checked, methods, '@anthropic-ai/sdk', observe);
}
