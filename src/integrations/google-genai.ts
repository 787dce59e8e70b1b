/**
 * `nebuly-client/google-genai`: a `@google/genai` client (2 and 3) whose model calls are
 * recorded in Nebuly. See docs/integrations.md.
 *
 * @example
 * ```ts
 * import { GoogleGenAI } from '@google/genai';
 * import { observeGoogleGenAI } from 'nebuly-client/google-genai';
 *
 * const conversation = nebuly.startConversation({ end_user: userHash });
 * const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey }), { conversation });
 * ```
 *
 * @module nebuly-client/google-genai
 */
import { observeGenAIClient } from './google-genai/observe.js';
import { checkTarget, type NebulyTarget } from './target.js';

export { endConversation } from './interactions.js';
export { currentInteractionId } from './target.js';
export type { NebulyTarget } from './target.js';

/**
 * Returns `client`, observed: the same type and behaviour (results, errors, streams,
 * chats), with each model call recorded in `target`: `models.generateContent` and
 * `models.generateContentStream`, and the chats of `chats.create()` (`sendMessage`,
 * `sendMessageStream`), which call them with the chat's history. Streamed chunks reach
 * you unchanged as they arrive; the step is recorded when the stream ends, is left, or
 * fails. An answer with function calls leaves its interaction open: the call that sends
 * their function responses continues it, and they are recorded as retrieval steps.
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
 * import { GoogleGenAI } from '@google/genai';
 * import { observeGoogleGenAI } from 'nebuly-client/google-genai';
 *
 * const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey }), { nebuly, endUser: userHash, conversationId: chatId });
 * const chat = ai.chats.create({ model: 'gemini-2.5-flash', config: { systemInstruction: 'Be brief.' } });
 * for await (const chunk of await chat.sendMessageStream({ message: 'Where is my order?' })) render(chunk.text);
 * // One interaction of conversation `chatId`: input 'Where is my order?', its LLM step with the tokens of usageMetadata.
 * ```
 */
export function observeGoogleGenAI<Client extends object>(client: Client, target?: NebulyTarget): Client {
  if (typeof client !== 'object' || client === null) {
    throw new TypeError('nebuly-client: observeGoogleGenAI(client, target): `client` must be a GoogleGenAI client.');
  }
  return observeGenAIClient(client, checkTarget(target));
}
