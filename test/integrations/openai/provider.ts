/** What the OpenAI integration tests share: a fake OpenAI service, a client of it, and a scripted exchange. */
import OpenAI from 'openai';
import { provider } from '../../helpers/fake-provider.js';

export { collect, provider, useFakeProvider } from '../../helpers/fake-provider.js';

export const openai = (maxRetries = 0) => new OpenAI({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries });

export const MESSAGES = [
  { role: 'user' as const, content: 'Where is order 7?' },
  { role: 'system' as const, content: 'You are a shop assistant.' },
];
export const ANSWER = { model: 'gpt-4o-mini-2024-07-18', text: 'Order 7 shipped.', inputTokens: 21, outputTokens: 5 };
