// An OpenAI chatbot recorded in one line: `observeOpenAI` returns the same client, and
// every call becomes an interaction of the user's conversation, with its LLM step.
//
//   npx tsx examples/openai.ts
//
// Runs offline: a fake OpenAI (examples/support/fake-llm-server.ts) and the embedded
// Nebuly reference server stand in for the real services; no key is needed.
import OpenAI from 'openai';
import { NebulyClient } from 'nebuly-client';
import { endConversation, observeOpenAI } from 'nebuly-client/openai';
import { createReferenceServer } from 'nebuly-client/reference-server';
import { startFakeLLMServer } from './support/fake-llm-server.js';
import { openAIChatChunks, openAIChatCompletion } from './support/replies.js';

const fakeOpenAI = await startFakeLLMServer((request) => {
  const { stream, messages } = request.body as { stream?: boolean; messages: { content: string }[] };
  const question = messages.at(-1)?.content ?? '';
  const answer = { model: 'gpt-4o-mini-2024-07-18', text: `You asked: "${question}". It shipped on Monday.`, inputTokens: 42, outputTokens: 12 };
  return stream === true ? { events: openAIChatChunks(answer, { pieces: answer.text.split(/(?<= )/), withUsage: true }) } : openAIChatCompletion(answer);
});
const reference = await createReferenceServer({ apiKeys: { 'dev-key': 'shop' } });

const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: reference.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});

// In your app: `new OpenAI()` reads OPENAI_API_KEY. Here it talks to the fake provider.
const client = new OpenAI({ apiKey: 'sk-not-a-real-key', baseURL: `${fakeOpenAI.url}/v1` });

// One observed client per chat session: its calls are one conversation of this user.
const target = { nebuly, endUser: 'user-7f3a', conversationId: 'chat-1', tags: { channel: 'web' } };
const openai = observeOpenAI(client, target, { includeUsage: true });

const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a shop assistant.' }];

// A plain call: the result is exactly what OpenAI returned.
history.push({ role: 'user', content: 'Where is my order?' });
const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: history });
const first = completion.choices[0]?.message.content ?? '';
console.log(`assistant: ${first}`);
history.push({ role: 'assistant', content: first });

// A streamed call: chunks arrive as they are sent; the step is recorded at the end.
history.push({ role: 'user', content: 'Can I change the address?' });
let second = '';
process.stdout.write('assistant (streamed): ');
for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: history, stream: true })) {
  // With `includeUsage`, the last chunk carries the usage and no choices.
  const piece = chunk.choices[0]?.delta.content ?? '';
  second += piece;
  process.stdout.write(piece);
}
process.stdout.write('\n');
history.push({ role: 'assistant', content: second });

// The session is over: send the conversation (the idle time-out or shutdown would too).
const outcome = await endConversation(target);
console.log(`conversation chat-1: ${outcome?.status}`);

for (const stored of reference.store.listInteractions('shop')) {
  const [step] = stored.trace as { model: string; input_tokens?: number; output_tokens?: number }[];
  console.log(`stored: "${stored.input}" -> "${stored.output}" (${step?.model}, ${step?.input_tokens} in / ${step?.output_tokens} out)`);
}

await nebuly.shutdown();
await Promise.all([reference.close(), fakeOpenAI.close()]);
