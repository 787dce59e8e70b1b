// An Amazon Bedrock chatbot recorded in one line: `observeBedrock` returns the same
// client, whose Converse and ConverseStream commands are recorded. Here a streamed tool
// loop (the model asks for a tool, the app runs it, the model answers) is one interaction
// of a conversation you started: the user's message and the answer they saw, with both
// model calls and the tool run between them as its steps.
//
//   npx tsx examples/bedrock.ts
//
// Runs offline: a fake Bedrock runtime (examples/support/fake-bedrock-server.ts, HTTP/2 and
// event-stream framing, as Bedrock speaks them) and the embedded Nebuly reference server
// stand in for the real services; no AWS account is needed.
import { BedrockRuntimeClient, type ContentBlock, ConverseStreamCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { NebulyClient } from 'nebuly-client';
import { observeBedrock } from 'nebuly-client/bedrock';
import { createReferenceServer } from 'nebuly-client/reference-server';
import { converseStreamEvents, startFakeBedrockServer } from './support/fake-bedrock-server.js';

const MODEL = 'anthropic.claude-example-v1:0';

// The fake model asks for a tool first, then answers with the tool's result.
const fakeBedrock = await startFakeBedrockServer((request) => {
  const { messages } = request.body as { messages: Message[] };
  const toolResult = messages.at(-1)?.content?.some((block) => block.toolResult !== undefined) === true;
  return {
    stream: toolResult
      ? converseStreamEvents({ inputTokens: 120, outputTokens: 14 }, ['Your order ', 'shipped on Monday.'])
      : converseStreamEvents({ text: 'Let me look.', toolUses: [{ toolUseId: 'tooluse_1', name: 'get_order', input: { id: 'A-17' } }], inputTokens: 80, outputTokens: 20 }),
  };
});
const reference = await createReferenceServer({ apiKeys: { 'dev-key': 'shop' } });

const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: reference.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});
const conversation = nebuly.startConversation({ end_user: 'user-7f3a', tags: { channel: 'app' } });

// In your app: `new BedrockRuntimeClient({ region })` with your AWS credentials. Here it talks to the fake runtime.
const bedrock = observeBedrock(
  new BedrockRuntimeClient({ region: 'us-east-1', endpoint: fakeBedrock.url, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-real-secret' } }),
  { conversation },
);

const toolConfig = { tools: [{ toolSpec: { name: 'get_order', description: 'Looks an order up', inputSchema: { json: { type: 'object', properties: { id: { type: 'string' } } } } } }] };
const messages: Message[] = [{ role: 'user', content: [{ text: 'Where is order A-17?' }] }];

/** One streamed call: the text as it arrives, and the answer's content blocks. */
async function converse(): Promise<ContentBlock[]> {
  const { stream } = await bedrock.send(new ConverseStreamCommand({ modelId: MODEL, messages, toolConfig }));
  const blocks: { text: string; toolUse?: { toolUseId: string; name: string } }[] = [];
  for await (const event of stream ?? []) {
    const index = event.contentBlockStart?.contentBlockIndex ?? event.contentBlockDelta?.contentBlockIndex;
    if (index === undefined) continue;
    const block = (blocks[index] ??= { text: '' });
    const start = event.contentBlockStart?.start?.toolUse;
    if (start !== undefined) block.toolUse = { toolUseId: start.toolUseId ?? '', name: start.name ?? '' };
    const delta = event.contentBlockDelta?.delta;
    if (delta?.text !== undefined) process.stdout.write(delta.text);
    block.text += delta?.text ?? delta?.toolUse?.input ?? '';
  }
  process.stdout.write('\n');
  return blocks.map((block) => (block.toolUse === undefined ? { text: block.text } : { toolUse: { ...block.toolUse, input: JSON.parse(block.text) as Record<string, string> } }));
}

const first = await converse();
const toolUse = first.find((block) => block.toolUse !== undefined)?.toolUse;
console.log(`assistant asks for ${toolUse?.name}(${JSON.stringify(toolUse?.input)})`);
messages.push({ role: 'assistant', content: first });
messages.push({ role: 'user', content: [{ toolResult: { toolUseId: toolUse?.toolUseId, content: [{ text: 'A-17: shipped Monday' }] } }] });
await converse();

const outcome = await conversation.end();
console.log(`conversation: ${outcome.status}`);
for (const stored of reference.store.listInteractions('shop')) {
  console.log(`stored: "${stored.input}" -> "${stored.output}"`);
  for (const step of stored.trace as { messages?: unknown[]; input_tokens?: number; source?: string; outputs?: string[] }[]) {
    if (step.source !== undefined) console.log(`  tool ${step.source} -> ${JSON.stringify(step.outputs)}`);
    else console.log(`  llm (${step.messages?.length} messages, ${step.input_tokens} tokens in)`);
  }
}

bedrock.destroy();
await nebuly.shutdown();
await Promise.all([reference.close(), fakeBedrock.close()]);
