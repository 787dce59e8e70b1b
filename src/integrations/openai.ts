/**
 * `nebuly-client/openai`: an OpenAI client (openai 6) whose calls are recorded in Nebuly.
 * See docs/integrations.md.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { observeOpenAI } from 'nebuly-client/openai';
 *
 * const conversation = nebuly.startConversation({ end_user: userHash });
 * const client = observeOpenAI(new OpenAI(), { conversation });
 * ```
 *
 * @module nebuly-client/openai
 */
import { chatCompletionsObserver } from './openai/chat.js';
import { embeddingsObserver } from './openai/embeddings.js';
import { responsesObserver } from './openai/responses.js';
import { observeClient } from './provider/client-proxy.js';
import type { MethodObserver } from './provider/recording.js';
import { checkTarget, type NebulyTarget } from './target.js';

export { endConversation } from './interactions.js';
export { currentInteractionId } from './target.js';
export type { NebulyTarget } from './target.js';

/**
 * Options of {@link observeOpenAI}.
 * @example
 * ```ts
 * const openai = observeOpenAI(new OpenAI(), target, { includeUsage: true });
 * ```
 */
export interface ObserveOpenAIOptions {
  /**
   * Ask for token usage on streamed chat completions: sets
   * `stream_options: { include_usage: true }` on `chat.completions.create({ stream: true })`
   * calls (and the `chat.completions.stream()` helper) that did not set `include_usage`
   * themselves. OpenAI sends usage on streams only when asked, so without it a streamed
   * step has no token counts.
   *
   * Your code still receives the stream its request asked for: the usage that was not
   * asked for is recorded, and its chunk (`choices: []`) and the `usage: null` of the
   * others are not passed on, so a loop reading `chunk.choices[0].delta` stays safe. A
   * call that set `include_usage: true` gets its usage chunk as always. Streamed
   * `responses.create` calls always carry usage: not affected.
   * @default false
   */
  includeUsage?: boolean | undefined;
}

/**
 * Returns `client`, observed: the same type and behaviour (results, errors, retries,
 * `.withResponse()`, streams and stream helpers), with each model call recorded in
 * `target`: `chat.completions.create` (plain and streamed, and the `.stream()` /
 * `.parse()` / `.runTools()` helpers that call it), `responses.create` (plain and
 * streamed), `embeddings.create`. Streamed chunks reach you unchanged as they arrive; the
 * step is recorded when the stream ends, is aborted, or fails.
 *
 * Nothing is recorded in your way: a fault of the instrumentation goes to the Nebuly
 * client's `onError`, never into your promise or stream.
 *
 * @param target Where the calls go: `{ turn }`, `{ conversation }` or
 *   `{ nebuly, endUser, conversationId?, tags? }` (see {@link NebulyTarget}); left out
 *   (`undefined`), each call goes to the ambient target of `nebuly.withConversation()`,
 *   so that one client observed once per process serves every user.
 * @throws TypeError when `target` is given and is none of those, or `client` is not an object.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { observeOpenAI } from 'nebuly-client/openai';
 *
 * const conversation = nebuly.startConversation({ end_user: userHash });
 * const openai = observeOpenAI(new OpenAI(), { conversation }, { includeUsage: true });
 * const completion = await openai.chat.completions.create({
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Where is my order?' }],
 * });
 * // One interaction recorded: input 'Where is my order?', output the answer, one LLM step.
 * await conversation.end();
 * ```
 */
export function observeOpenAI<Client extends object>(client: Client, target?: NebulyTarget, options: ObserveOpenAIOptions = {}): Client {
  if (typeof client !== 'object' || client === null) {
    throw new TypeError('nebuly-client: observeOpenAI(client, target): `client` must be an OpenAI client.');
  }
  const checked = checkTarget(target);
  const methods = new Map<string, MethodObserver>([
    ['chat.completions.create', chatCompletionsObserver(options.includeUsage === true)],
    ['responses.create', responsesObserver],
    ['embeddings.create', embeddingsObserver],
  ]);
  const observe = (next: object): object => observeClient(next, checked, methods, 'openai', observe);
  return observeClient(client, checked, methods, 'openai', observe);
}
