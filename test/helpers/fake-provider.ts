/**
 * The fake LLM provider of a test file (examples/support/fake-llm-server.ts), started once
 * for the file: shared by the Node-20 integration tests and the majors' (test/majors/), so
 * it imports no framework (each tree has its own copy of openai).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeLLMServer, type ProviderReply, startFakeLLMServer } from '../../examples/support/fake-llm-server.js';

/** The fake provider of the test file, started by {@link useFakeProvider}. */
export let provider: FakeLLMServer;

/** OpenAI's error body, for a request no test scripted. */
const NOT_SCRIPTED: ProviderReply = { status: 500, json: { error: { message: 'not scripted' } } };

/**
 * Starts the fake provider before the file's tests, forgets its requests before each,
 * closes it after. Requests no test scripted get `notScripted` (an OpenAI-style 500).
 *
 * @example
 * ```ts
 * useFakeProvider();
 * it('…', async () => {
 *   provider.answer(() => openAIChatCompletion(ANSWER));
 * });
 * ```
 */
export function useFakeProvider(notScripted: ProviderReply = NOT_SCRIPTED): void {
  beforeAll(async () => {
    provider = await startFakeLLMServer(() => notScripted);
  });
  afterAll(() => provider.close());
  beforeEach(() => {
    provider.requests.length = 0;
  });
}

/**
 * Every item of `stream`, in order.
 *
 * @example
 * ```ts
 * const chunks = await collect(await openai.chat.completions.create({ …, stream: true }));
 * ```
 */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}
