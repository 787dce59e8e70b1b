/** What the OpenAI integration tests share: a fake OpenAI service, a client of it, and a scripted exchange. */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeLLMServer, startFakeLLMServer } from '../../../examples/support/fake-llm-server.js';

/** The fake OpenAI service of the test file, started by {@link useFakeProvider}. */
export let provider: FakeLLMServer;

/** Starts the fake service before the file's tests, forgets its requests before each, closes it after. */
export function useFakeProvider(): void {
  beforeAll(async () => {
    provider = await startFakeLLMServer(() => ({ status: 500, json: { error: { message: 'not scripted' } } }));
  });
  afterAll(() => provider.close());
  beforeEach(() => {
    provider.requests.length = 0;
  });
}

export const openai = (maxRetries = 0) => new OpenAI({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries });

export const MESSAGES = [
  { role: 'user' as const, content: 'Where is order 7?' },
  { role: 'system' as const, content: 'You are a shop assistant.' },
];
export const ANSWER = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 shipped.', inputTokens: 21, outputTokens: 5 };

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
