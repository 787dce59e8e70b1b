// A Gemini chatbot recorded in one line: `observeGoogleGenAI` returns the same client; the
// chats it makes are observed too. Here a chat with a function call (the model asks for
// it, the app runs it and sends the response back) is one interaction of a chat session:
// the user's message and the answer they saw, with both model calls and the function run
// between them as its steps. The next message, streamed, is the next interaction.
//
//   npx tsx examples/google-genai.ts
//
// Runs offline: a fake Gemini API (examples/support/fake-llm-server.ts) and the embedded
// Nebuly reference server stand in for the real services; no key is needed.
import { type FunctionCall, GoogleGenAI, type Part } from '@google/genai';
import { NebulyClient } from 'nebuly-client';
import { endConversation, observeGoogleGenAI } from 'nebuly-client/google-genai';
import { createReferenceServer } from 'nebuly-client/reference-server';
import { startFakeLLMServer } from './support/fake-llm-server.js';
import { geminiChunks, geminiResponse } from './support/gemini-replies.js';

const MODEL = 'gemini-example-001';

// The fake model asks for get_order when it has no function response yet, then answers.
const fakeGemini = await startFakeLLMServer((request) => {
  const { contents } = request.body as { contents: { parts: Part[] }[] };
  if (request.path.endsWith(':streamGenerateContent')) {
    return { events: geminiChunks({ model: MODEL, inputTokens: 150, outputTokens: 9 }, { pieces: ['You can change it ', 'until it ships.'] }) };
  }
  const responded = contents.at(-1)?.parts.some((part) => part.functionResponse !== undefined) === true;
  return responded
    ? geminiResponse({ model: MODEL, text: 'Your order shipped on Monday.', inputTokens: 120, outputTokens: 8 })
    : geminiResponse({ model: MODEL, toolCalls: [{ name: 'get_order', arguments: { id: 'A-17' } }], inputTokens: 80, outputTokens: 12 });
});
const reference = await createReferenceServer({ apiKeys: { 'dev-key': 'shop' } });

const nebuly = new NebulyClient({
  apiKey: 'dev-key',
  baseUrl: reference.url,
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
});
const target = { nebuly, endUser: 'user-7f3a', conversationId: 'chat-1' };

// In your app: `new GoogleGenAI({ apiKey: process.env.GEMINI_API_KEY })`. Here it talks to the fake API.
const ai = observeGoogleGenAI(new GoogleGenAI({ apiKey: 'gemini-not-a-real-key', httpOptions: { baseUrl: fakeGemini.url } }), target);
const chat = ai.chats.create({
  model: 'gemini-2.5-flash',
  config: {
    systemInstruction: 'You are the assistant of a shop.',
    tools: [{ functionDeclarations: [{ name: 'get_order', description: 'Looks an order up', parametersJsonSchema: { type: 'object', properties: { id: { type: 'string' } } } }] }],
  },
});

const runTool = (call: FunctionCall): Part => ({ functionResponse: { name: call.name ?? '', response: { result: `${String(call.args?.id)}: shipped Monday` } } });

const first = await chat.sendMessage({ message: 'Where is order A-17?' });
const calls = first.functionCalls ?? [];
console.log(`model asks for ${calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(', ')}`);
const answer = await chat.sendMessage({ message: calls.map(runTool) });
console.log(`answer: ${answer.text}`);

for await (const chunk of await chat.sendMessageStream({ message: 'Can I change the address?' })) process.stdout.write(chunk.text ?? '');
process.stdout.write('\n');

const outcome = await endConversation(target); // the user closed the chat
console.log(`conversation chat-1: ${outcome?.status}`);
for (const stored of reference.store.listInteractions('shop')) {
  console.log(`stored: "${stored.input}" -> "${stored.output}"`);
  for (const step of stored.trace as { model?: string; input_tokens?: number; output_tokens?: number; source?: string; outputs?: string[] }[]) {
    if (step.source !== undefined) console.log(`  tool ${step.source} -> ${JSON.stringify(step.outputs)}`);
    else console.log(`  llm ${step.model} (${step.input_tokens} in / ${step.output_tokens} out)`);
  }
}

await nebuly.shutdown();
await Promise.all([reference.close(), fakeGemini.close()]);
