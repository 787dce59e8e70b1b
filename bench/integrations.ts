/**
 * The cost of `observeOpenAI`: the same calls through the unwrapped and the observed
 * OpenAI client, in the same run, one of each in turn, over a `fetch` that answers from
 * memory so that no network is measured (`overhead.ts` says how it is timed).
 */
import OpenAI from 'openai';
import { measureOverhead, type Overhead } from './overhead.js';
import { benchClient, DIST, type Sdk } from './sdk.js';

type OpenAIModule = typeof import('../src/integrations/openai.js');

/** Non-streamed calls of each kind, timed one by one. */
const CALLS = 3000;
/** Streamed calls of each kind: short streams, so that few of them are interrupted. */
const STREAMS = 1000;
/** Calls recorded per conversation before it is sent and replaced. */
const PER_CONVERSATION = 50;
/** Chunks of the streamed answer. */
const CHUNKS = 50;

/** `observeOpenAI`'s figures, and how many calls and streams they come from. */
export interface IntegrationResult extends Overhead {
  chunksPerStream: number;
  calls: number;
  streams: number;
}

const encoder = new TextEncoder();

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Parental leave is 16 weeks in the first year (section 4.2).', refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 81, completion_tokens: 17, total_tokens: 98 },
});

const STREAM = encoder.encode(
  [
    ...Array.from({ length: CHUNKS }, (_, n) =>
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'gpt-4o-mini-2024-07-18',
        choices: [{ index: 0, delta: { content: `word${n} ` }, finish_reason: null, logprobs: null }],
      }),
    ),
    '[DONE]',
  ]
    .map((data) => `data: ${data}\n\n`)
    .join(''),
);

/** The provider, from memory: the same bytes for every call, no socket. */
const memoryFetch: typeof fetch = async (_input, init) => {
  const streamed = typeof init?.body === 'string' && init.body.includes('"stream":true');
  if (!streamed) return new Response(COMPLETION, { status: 200, headers: { 'content-type': 'application/json' } });
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(STREAM);
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
};

const MESSAGES = [
  { role: 'system' as const, content: 'You are the assistant of an HR help desk. Answer from the handbook only.' },
  { role: 'user' as const, content: 'What does the handbook say about parental leave in the first year?' },
];

export async function benchIntegrations(sdk: Sdk): Promise<IntegrationResult> {
  const { observeOpenAI } = (await import(new URL('openai.js', DIST).href)) as OpenAIModule;
  const { nebuly, errors } = benchClient(sdk);
  const plain = new OpenAI({ apiKey: 'bench-key', baseURL: 'http://provider.bench/v1', fetch: memoryFetch, maxRetries: 0 });
  // Each observed call is an interaction of its own in the conversation, as a chatbot
  // backend records them; the conversation is replaced (and sent) between samples.
  let conversation = nebuly.startConversation({ end_user: 'bench-user' });
  let observed = observeOpenAI(plain, { conversation });
  const nextConversation = async () => {
    await conversation.end();
    await nebuly.flush(); // its delivery done before the next batch is timed
    conversation = nebuly.startConversation({ end_user: 'bench-user' });
    observed = observeOpenAI(plain, { conversation });
  };

  const call = (client: OpenAI) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
  const stream = async (client: OpenAI) => {
    let text = '';
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    return text;
  };

  const figures = await measureOverhead({
    plain,
    observed: () => observed,
    call,
    stream,
    rotate: nextConversation,
    calls: CALLS,
    streams: STREAMS,
    chunksPerStream: CHUNKS,
    perConversation: PER_CONVERSATION,
  });
  await conversation.end();
  await nebuly.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  return {
    ...figures,
    chunksPerStream: CHUNKS,
    calls: CALLS,
    streams: STREAMS,
  };
}
