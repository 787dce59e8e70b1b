// An Anthropic chatbot recorded in one line: `observeAnthropic` returns the same client;
// here a tool loop (the model asks for a tool, the app runs it, the model answers) is one
// interaction of a conversation you started: the user's message and the answer they saw,
// with both model calls and the tool run between them as its steps.
//
//   npx tsx examples/anthropic.ts
//
// Runs offline: a fake Anthropic API (examples/support/fake-llm-server.ts) and the
// embedded Nebuly reference server stand in for the real services; no key is needed.
import Anthropic from '@anthropic-ai/sdk';
import { NebulyClient } from 'nebuly-client';
import { observeAnthropic } from 'nebuly-client/anthropic';
import { createReferenceServer } from 'nebuly-client/reference-server';
import { startFakeLLMServer } from './support/fake-llm-server.js';
import { anthropicEvents } from './support/replies.js';

const MODEL = 'claude-example-model';

// The fake model asks for a tool first, then answers with the tool's result.
const fakeAnthropic = await startFakeLLMServer((request) => {
  const { messages } = request.body as { messages: { role: string; content: unknown }[] };
  const toolResult = messages.length > 1;
  return {
    events: toolResult
      ? anthropicEvents({ model: MODEL, inputTokens: 120, outputTokens: 14 }, { pieces: ['Your order ', 'shipped on Monday.'] })
      : anthropicEvents({ model: MODEL, text: 'Let me look.', toolCalls: [{ name: 'get_order', arguments: { id: 'A-17' } }], inputTokens: 80, outputTokens: 20 }),
  };
});
const reference = await createReferenceServer({ apiKeys: { 'dev-key': 'shop' } });

const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: reference.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});
const conversation = nebuly.startConversation({ end_user: 'user-7f3a', tags: { channel: 'app' } });

// In your app: `new Anthropic()` reads ANTHROPIC_API_KEY. Here it talks to the fake API.
const anthropic = observeAnthropic(new Anthropic({ apiKey: 'sk-ant-not-a-real-key', baseURL: fakeAnthropic.url }), {
  conversation,
});

const tools: Anthropic.Tool[] = [
  { name: 'get_order', description: 'Looks an order up', input_schema: { type: 'object', properties: { id: { type: 'string' } } } },
];
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Where is order A-17?' }];

// The stream helper works as usual; each of its calls is recorded when it ends.
const first = await anthropic.messages.stream({ model: MODEL, max_tokens: 512, tools, messages }).finalMessage();
const toolUse = first.content.find((block) => block.type === 'tool_use');
console.log(`assistant asks for ${toolUse?.name}(${JSON.stringify(toolUse?.input)})`);

messages.push({ role: 'assistant', content: first.content });
messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse?.id ?? '', content: 'A-17: shipped Monday' }] });
const answer = await anthropic.messages
  .stream({ model: MODEL, max_tokens: 512, tools, messages })
  .on('text', (text) => process.stdout.write(text))
  .finalText();
process.stdout.write('\n');

const outcome = await conversation.end();
console.log(`conversation: ${outcome.status}; answer: ${answer}`);
for (const stored of reference.store.listInteractions('shop')) {
  console.log(`stored: "${stored.input}" -> "${stored.output}"`);
  for (const step of stored.trace as { messages?: unknown[]; input_tokens?: number; source?: string; outputs?: string[] }[]) {
    if (step.source !== undefined) console.log(`  tool ${step.source} -> ${JSON.stringify(step.outputs)}`);
    else console.log(`  llm (${step.messages?.length} messages, ${step.input_tokens} tokens in)`);
  }
}

await nebuly.shutdown();
await Promise.all([reference.close(), fakeAnthropic.close()]);
