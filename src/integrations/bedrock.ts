/**
 * `nebuly-client/bedrock`: an AWS Bedrock runtime client (`@aws-sdk/client-bedrock-runtime`
 * 3) whose Converse calls are recorded in Nebuly. See docs/integrations.md.
 *
 * @example
 * ```ts
 * import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
 * import { observeBedrock } from 'nebuly-client/bedrock';
 *
 * const conversation = nebuly.startConversation({ end_user: userHash });
 * const bedrock = observeBedrock(new BedrockRuntimeClient({ region: 'us-east-1' }), { conversation });
 * ```
 *
 * @module nebuly-client/bedrock
 */
import { observeBedrockClient } from './bedrock/observe.js';
import { checkTarget, type NebulyTarget } from './target.js';

export { endConversation } from './interactions.js';
export { currentInteractionId } from './target.js';
export type { NebulyTarget } from './target.js';

/**
 * Returns `client`, observed: the same type and behaviour (results, errors, retries,
 * streams), with each `ConverseCommand` and `ConverseStreamCommand` sent through
 * `client.send()` recorded in `target` (and the `converse()` / `converseStream()` methods
 * of the aggregated `BedrockRuntime` client, which send them). Other commands pass
 * through unrecorded, as do sends with a callback. Streamed events reach you unchanged as
 * they arrive; the step is recorded when the stream ends, is left, or fails. An answer
 * with tool uses leaves its interaction open: the call that sends their tool results
 * continues it, and they are recorded as retrieval steps.
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
 * import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
 * import { observeBedrock } from 'nebuly-client/bedrock';
 *
 * const bedrock = observeBedrock(new BedrockRuntimeClient({ region: 'us-east-1' }), { nebuly, endUser: userHash, conversationId: chatId });
 * const { stream } = await bedrock.send(
 *   new ConverseStreamCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'Where is my order?' }] }] }),
 * );
 * for await (const event of stream ?? []) render(event.contentBlockDelta?.delta?.text ?? '');
 * // One interaction of conversation `chatId`, with its LLM step and the tokens of the stream's metadata event.
 * ```
 */
export function observeBedrock<Client extends object>(client: Client, target?: NebulyTarget): Client {
  if (typeof client !== 'object' || client === null) {
    throw new TypeError('nebuly-client: observeBedrock(client, target): `client` must be a BedrockRuntimeClient.');
  }
  return observeBedrockClient(client, checkTarget(target));
}
