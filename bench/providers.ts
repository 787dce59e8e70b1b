/**
 * The cost of `observeGoogleGenAI` and `observeBedrock`: the same calls through the
 * unwrapped and the observed client, in the same run, one of each in turn, over a
 * transport that answers from memory so that no network is measured (`httpOptions.fetch`
 * for `@google/genai`, a `requestHandler` for the Bedrock runtime client; the observation
 * does not depend on the transport), timed as `overhead.ts` says.
 *
 *   node --expose-gc --import tsx bench/providers.ts   # these two alone (after npm run build)
 */
import { Readable } from 'node:stream';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { converseOutput, converseStreamEvents, streamMessageBytes } from '../examples/support/fake-bedrock-server.js';
import { geminiChunks, geminiResponse } from '../examples/support/gemini-replies.js';
import { measureOverhead, type Overhead, type Timing } from './overhead.js';
import { benchClient, DIST, loadSdk, type Sdk } from './sdk.js';

type GenAIModule = typeof import('../src/integrations/google-genai.js');
type BedrockModule = typeof import('../src/integrations/bedrock.js');

/** Non-streamed calls of each kind, timed one by one. */
const CALLS = 2000;
/** Streamed calls of each kind. */
const STREAMS = 500;
/** Calls recorded per conversation before it is sent and replaced. */
const PER_CONVERSATION = 50;
/** Pieces of text of the streamed answer. */
const CHUNKS = 50;

/** One provider's figures: µs per call and per streamed chunk, unwrapped and observed. */
export type ProviderResult = Overhead;

export interface ProvidersResult {
  gemini: ProviderResult;
  bedrock: ProviderResult;
  calls: number;
  streams: number;
  chunksPerStream: number;
}

const ANSWER = { model: 'gemini-2.5-flash', text: 'Parental leave is 16 weeks in the first year (section 4.2).', inputTokens: 81, outputTokens: 17 };
const PIECES = Array.from({ length: CHUNKS }, (_, n) => `word${n} `);
const QUESTION = 'What does the handbook say about parental leave in the first year?';
const SYSTEM = 'You are the assistant of an HR help desk. Answer from the handbook only.';

const encoder = new TextEncoder();
const GEMINI_JSON = JSON.stringify((geminiResponse(ANSWER) as { json: unknown }).json);
const GEMINI_SSE = encoder.encode(
  geminiChunks(ANSWER, { pieces: PIECES })
    .map(({ data }) => `data: ${JSON.stringify(data)}\n\n`)
    .join(''),
);

/** The Gemini API, from memory: the same bytes for every call, no socket. */
const geminiFetch: typeof fetch = async (input) => {
  if (!String(input instanceof Request ? input.url : input).includes(':streamGenerateContent')) {
    return new Response(GEMINI_JSON, { status: 200, headers: { 'content-type': 'application/json' } });
  }
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(GEMINI_SSE);
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
};

const BEDROCK_JSON = Buffer.from(JSON.stringify(converseOutput({ text: ANSWER.text, inputTokens: 81, outputTokens: 17 })));
const BEDROCK_STREAM = Buffer.concat(converseStreamEvents({ inputTokens: 81, outputTokens: 17 }, PIECES).map(streamMessageBytes));

/** The Bedrock runtime, from memory: a request handler answering every call with the same bytes. */
const bedrockHandler = {
  async handle(request: { path: string }) {
    const streamed = request.path.endsWith('/converse-stream');
    return {
      response: {
        statusCode: 200,
        reason: 'OK',
        headers: { 'content-type': streamed ? 'application/vnd.amazon.eventstream' : 'application/json', 'x-amzn-requestid': 'bench' },
        body: Readable.from([streamed ? BEDROCK_STREAM : BEDROCK_JSON]),
      },
    };
  },
  updateHttpClientConfig() {},
  httpHandlerConfigs: () => ({}),
};

export async function benchProviders(sdk: Sdk): Promise<ProvidersResult> {
  const { observeGoogleGenAI } = (await import(new URL('google-genai.js', DIST).href)) as GenAIModule;
  const { observeBedrock } = (await import(new URL('bedrock.js', DIST).href)) as BedrockModule;
  const { nebuly, errors } = benchClient(sdk);
  const genai = new GoogleGenAI({ apiKey: 'bench-key', httpOptions: { baseUrl: 'http://provider.bench', fetch: geminiFetch } });
  const runtime = new BedrockRuntimeClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench-secret' },
    requestHandler: bedrockHandler,
    maxAttempts: 1,
  });
  // Each observed call is an interaction of its own in the conversation, as a chatbot
  // backend records them; the conversation is replaced (and sent) between samples.
  let conversation = nebuly.startConversation({ end_user: 'bench-user' });
  let observedGenai = observeGoogleGenAI(genai, { conversation });
  let observedRuntime = observeBedrock(runtime, { conversation });
  const rotate = async () => {
    await conversation.end();
    await nebuly.flush(); // its delivery done before the next batch is timed
    conversation = nebuly.startConversation({ end_user: 'bench-user' });
    observedGenai = observeGoogleGenAI(genai, { conversation });
    observedRuntime = observeBedrock(runtime, { conversation });
  };

  const params = { model: 'gemini-2.5-flash', contents: QUESTION, config: { systemInstruction: SYSTEM } };
  const gemini = await measureOverhead({
    plain: genai,
    observed: () => observedGenai,
    call: (client) => client.models.generateContent(params),
    stream: async (client) => {
      let text = '';
      for await (const chunk of await client.models.generateContentStream(params)) text += chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? '';
      return text;
    },
    rotate,
    calls: CALLS,
    streams: STREAMS,
    chunksPerStream: CHUNKS,
    perConversation: PER_CONVERSATION,
  });

  const input = { modelId: 'anthropic.claude-bench-v1:0', system: [{ text: SYSTEM }], messages: [{ role: 'user' as const, content: [{ text: QUESTION }] }] };
  const bedrock = await measureOverhead({
    plain: runtime,
    observed: () => observedRuntime,
    call: (client) => client.send(new ConverseCommand(input)),
    stream: async (client) => {
      let text = '';
      for await (const event of (await client.send(new ConverseStreamCommand(input))).stream ?? []) text += event.contentBlockDelta?.delta?.text ?? '';
      return text;
    },
    rotate,
    calls: CALLS,
    streams: STREAMS,
    chunksPerStream: CHUNKS,
    perConversation: PER_CONVERSATION,
  });

  await conversation.end();
  await nebuly.shutdown();
  runtime.destroy();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);
  return { gemini, bedrock, calls: CALLS, streams: STREAMS, chunksPerStream: CHUNKS };
}

/** How run.ts prints the two providers' figures. */
export function describeProviders(result: ProvidersResult): string[] {
  const quartiles = ({ p25, median }: Timing) => `${p25} µs (median ${median})`;
  const line = (name: string, call: string, figures: ProviderResult) =>
    `${name}, lower quartiles of ${result.calls} calls and ${result.streams} streams, one of each in turn: ` +
    `${call} ${quartiles(figures.plainCallUs)} unwrapped, ${quartiles(figures.observedCallUs)} observed; ` +
    `per chunk of a ${result.chunksPerStream}-chunk stream ${quartiles(figures.plainChunkUs)} unwrapped, ${quartiles(figures.observedChunkUs)} observed`;
  return [line('observeGoogleGenAI', 'models.generateContent', result.gemini), line('observeBedrock', 'send(ConverseCommand)', result.bedrock)];
}

if (import.meta.url === new URL(process.argv[1] ?? '', 'file://').href) {
  const result = await benchProviders(await loadSdk());
  console.log(`overhead per call: observeGoogleGenAI ${result.gemini.overheadUsPerCall} µs, observeBedrock ${result.bedrock.overheadUsPerCall} µs`);
  console.log(`overhead per chunk: observeGoogleGenAI ${result.gemini.overheadUsPerChunk} µs, observeBedrock ${result.bedrock.overheadUsPerChunk} µs`);
  for (const line of describeProviders(result)) console.log(line);
}
