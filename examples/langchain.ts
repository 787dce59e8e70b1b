// A support agent built with LangChain.js (`@langchain/core` 1), recorded into Nebuly
// by one callback handler: each top-level run is an interaction, with the retriever, the
// model calls and the tool it ran as steps, in order.
//
//   npx tsx examples/langchain.ts
//
// No network and no key: the models and the retriever are LangChain's own test fakes
// (`@langchain/core/utils/testing`), and the Nebuly API is the reference server,
// started in-process on loopback.
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { Document } from '@langchain/core/documents';
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { RunnableLambda, type RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel, FakeRetriever, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { hashEndUser, NebulyClient } from 'nebuly-client';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { createReferenceServer } from 'nebuly-client/reference-server';
import * as z from 'zod';

const server = await createReferenceServer({ apiKeys: { 'dev-key': 'support-bot' } });
const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: server.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});

// --- The agent: a retriever for the shop's policies, a tool, and a model that calls it. ---
const policies = new FakeRetriever({ output: [new Document({ pageContent: 'Orders ship within 2 working days.' })] });
const getOrder = tool(async ({ orderId }: { orderId: string }) => JSON.stringify({ orderId, status: 'shipped', arrives: 'Tuesday' }), {
  name: 'get_order',
  description: 'Looks an order up by its number',
  schema: z.object({ orderId: z.string() }),
});
// Stand-ins for a provider's chat model: the first asks for the tool, the second answers.
const toolCallingModel = new FakeStreamingChatModel({
  responses: [new AIMessage('')],
  chunks: [new AIMessageChunk({ content: '', tool_calls: [{ id: 'call-1', name: 'get_order', args: { orderId: '42' } }] })],
}).bindTools([getOrder]);
const answeringModel = new FakeListChatModel({ responses: ['Your order 42 has shipped and arrives on Tuesday.'], sleep: 1 });

const agent = RunnableLambda.from(async (input: { question: string }, config?: RunnableConfig) => {
  const context = await policies.invoke(input.question, config);
  const messages: BaseMessage[] = [
    new SystemMessage(`You are the support assistant of an online shop. ${context.map((doc) => doc.pageContent).join(' ')}`),
    new HumanMessage(input.question),
  ];
  const request = await toolCallingModel.invoke(messages, config);
  messages.push(request);
  for (const call of request.tool_calls ?? []) messages.push(await getOrder.invoke({ ...call, type: 'tool_call' }, config));
  // The answer is streamed to the user; the handler records it whole when it ends.
  let answer = '';
  for await (const chunk of await answeringModel.stream(messages, config)) answer += String(chunk.content);
  return answer;
}).withConfig({ runName: 'support-agent' });

// --- A request handler, as in a serverless function. ---
const background: Promise<unknown>[] = [];
const waitUntil = (promise: Promise<unknown>) => void background.push(promise); // your platform's

async function handle(userId: string, question: string): Promise<string> {
  // Each request a conversation of its own, sent when the run ends: a function instance
  // may not live to see the next request.
  const target = { nebuly, endUser: await hashEndUser(userId, { salt: 'my-app' }) };
  const answer = await agent.invoke({ question }, { callbacks: [new NebulyCallbackHandler(target)] });
  // LangChain may run other callback handlers in the background: let them finish, then
  // let the platform keep the function alive until what was recorded is delivered.
  await awaitAllCallbacks();
  waitUntil(nebuly.flush());
  return answer;
}

console.log('Q: Where is my order 42?');
console.log(`A: ${await handle('alice@example.com', 'Where is my order 42?')}`);

// The platform keeps the function alive until what it was handed is done.
await Promise.all(background);
console.log(`delivered before the function was frozen: ${server.store.listInteractions('support-bot').length} interaction(s)`);
await nebuly.shutdown();

console.log('\nWhat the Nebuly API received:');
for (const stored of server.store.listInteractions('support-bot')) {
  console.log(`- interaction "${stored.input}" → "${stored.output}"`);
  for (const step of stored.trace) {
    if ('source' in step) console.log(`    retrieval ${step.source}(${step.input}) → ${step.outputs.join(' ')}`);
    else if ('messages' in step) console.log(`    llm       ${step.model}: ${JSON.stringify(step.output)} (${step.messages.length} messages)`);
  }
}
await server.close();
