/**
 * The cost of the framework integrations, measured the way bench/integrations.ts measures
 * `observeOpenAI`: the same calls with and without the integration, one of each in turn
 * (which one first alternating), models answering from memory (the frameworks' own test
 * models), overhead taken between lower quartiles.
 *
 * - AI SDK: `generateText` and a 50-part `streamText` through the model wrapped with a
 *   no-op middleware and with `nebulyMiddleware`: `wrapLanguageModel`'s own layer costs
 *   the same for any middleware, so the difference is the middleware's own work.
 * - LangChain: `invoke` of a chat model with a no-op callback handler and with
 *   `NebulyCallbackHandler`: LangChain's own callback machinery (run ids, serializing the
 *   model for `handleChatModelStart`) costs the same for any handler, so the difference
 *   is the handler's own work.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { generateText, simulateReadableStream, streamText, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { time, timing, type Timing } from './overhead.js';
import { benchClient, DIST, type Sdk } from './sdk.js';

type AiSdkModule = typeof import('../src/integrations/ai-sdk/index.js');
type LangChainModule = typeof import('../src/integrations/langchain/index.js');

const CALLS = 2000;
const STREAMS = 500;
const PER_CONVERSATION = 50;
const PARTS = 50;

export interface FrameworkResult {
  /** µs per `generateText`, the model wrapped with a no-op middleware and with `nebulyMiddleware`. */
  aiSdkPlainCallUs: Timing;
  aiSdkObservedCallUs: Timing;
  aiSdkOverheadUsPerCall: number;
  /** µs per text part of a `streamText` of `PARTS` parts, the same two ways. */
  aiSdkPlainPartUs: Timing;
  aiSdkObservedPartUs: Timing;
  aiSdkOverheadUsPerPart: number;
  /** µs per chat model `invoke`, with a no-op handler and with `NebulyCallbackHandler`. */
  langchainNoopCallUs: Timing;
  langchainObservedCallUs: Timing;
  langchainOverheadUsPerCall: number;
  calls: number;
  streams: number;
  partsPerStream: number;
}

const usage = {
  inputTokens: { total: 81, noCache: 81, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 17, text: 17, reasoning: undefined },
};
const STOP = { unified: 'stop', raw: 'stop' } as const;
const PROMPT = 'What does the handbook say about parental leave in the first year?';
const SYSTEM = 'You are the assistant of an HR help desk. Answer from the handbook only.';

function mockModel() {
  return new MockLanguageModelV3({
    provider: 'openai.chat',
    modelId: 'gpt-4o-mini',
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Parental leave is 16 weeks in the first year (section 4.2).' }],
      finishReason: STOP,
      usage,
      warnings: [],
    }),
    doStream: async () => ({
      stream: simulateReadableStream({
        // No delay between parts: the default (a timer per part) would be all that is measured.
        initialDelayInMs: null,
        chunkDelayInMs: null,
        chunks: [
          { type: 'text-start' as const, id: 't' },
          ...Array.from({ length: PARTS }, (_, n) => ({ type: 'text-delta' as const, id: 't', delta: `word${n} ` })),
          { type: 'text-end' as const, id: 't' },
          { type: 'finish' as const, finishReason: STOP, usage },
        ],
      }),
    }),
  });
}

/** A handler that does nothing: LangChain's callback machinery alone. */
class NoopHandler extends BaseCallbackHandler {
  name = 'noop';
  constructor() {
    super();
    this.awaitHandlers = true;
  }
}

export async function benchFrameworks(sdk: Sdk): Promise<FrameworkResult> {
  const { nebulyMiddleware } = (await import(new URL('ai-sdk.js', DIST).href)) as AiSdkModule;
  const { NebulyCallbackHandler } = (await import(new URL('langchain.js', DIST).href)) as LangChainModule;
  const { nebuly, errors } = benchClient(sdk);

  // Each observed call is an interaction of its own; the conversation is replaced (and
  // sent) between samples, as in bench/integrations.ts.
  const noopWrapped = wrapLanguageModel({ model: mockModel(), middleware: { specificationVersion: 'v3' } });
  let conversation = nebuly.startConversation({ end_user: 'bench-user' });
  let wrapped = wrapLanguageModel({ model: mockModel(), middleware: nebulyMiddleware({ conversation }) });
  let handler = new NebulyCallbackHandler({ conversation });
  const nextConversation = async () => {
    await conversation.end();
    await nebuly.flush();
    conversation = nebuly.startConversation({ end_user: 'bench-user' });
    wrapped = wrapLanguageModel({ model: mockModel(), middleware: nebulyMiddleware({ conversation }) });
    handler = new NebulyCallbackHandler({ conversation });
  };

  const generate = (model: LanguageModel) => generateText({ model, system: SYSTEM, prompt: PROMPT });
  const stream = async (model: LanguageModel) => {
    let text = '';
    for await (const part of streamText({ model, system: SYSTEM, prompt: PROMPT }).textStream) text += part;
    return text;
  };
  const chat = new FakeListChatModel({ responses: ['Parental leave is 16 weeks in the first year (section 4.2).'] });
  const noop = new NoopHandler();
  const invoke = (callback: BaseCallbackHandler) => chat.invoke(PROMPT, { callbacks: [callback] });

  for (let i = 0; i < 200; i += 1) {
    await generate(noopWrapped);
    await generate(wrapped);
    await invoke(noop);
    await invoke(handler);
    if (i % 4 === 0) {
      await stream(noopWrapped);
      await stream(wrapped);
    }
  }
  await nextConversation();

  // One of each in turn, which one first alternating, so that neither always runs in the
  // other's wake (its garbage, its warm caches).
  const pair = async (i: number, first: () => Promise<unknown>, second: () => Promise<unknown>, a: number[], b: number[]) => {
    if (i % 2 === 0) {
      a.push(await time(first));
      b.push(await time(second));
    } else {
      b.push(await time(second));
      a.push(await time(first));
    }
  };
  const samples = { plainCalls: [] as number[], observedCalls: [] as number[], plainStreams: [] as number[], observedStreams: [] as number[], noopInvokes: [] as number[], observedInvokes: [] as number[] };
  for (let i = 0; i < CALLS; i += 1) {
    await pair(i, () => generate(noopWrapped), () => generate(wrapped), samples.plainCalls, samples.observedCalls);
    await pair(i, () => invoke(noop), () => invoke(handler), samples.noopInvokes, samples.observedInvokes);
    if ((i + 1) % PER_CONVERSATION === 0) await nextConversation();
  }
  for (let i = 0; i < STREAMS; i += 1) {
    await pair(i, () => stream(noopWrapped), () => stream(wrapped), samples.plainStreams, samples.observedStreams);
    if ((i + 1) % PER_CONVERSATION === 0) await nextConversation();
  }
  await conversation.end();
  await nebuly.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  const overhead = (observed: Timing, plain: Timing) => Number((observed.p25 - plain.p25).toFixed(2));
  const aiSdkPlainCallUs = timing(samples.plainCalls);
  const aiSdkObservedCallUs = timing(samples.observedCalls);
  const aiSdkPlainPartUs = timing(samples.plainStreams, PARTS);
  const aiSdkObservedPartUs = timing(samples.observedStreams, PARTS);
  const langchainNoopCallUs = timing(samples.noopInvokes);
  const langchainObservedCallUs = timing(samples.observedInvokes);
  return {
    aiSdkPlainCallUs,
    aiSdkObservedCallUs,
    aiSdkOverheadUsPerCall: overhead(aiSdkObservedCallUs, aiSdkPlainCallUs),
    aiSdkPlainPartUs,
    aiSdkObservedPartUs,
    aiSdkOverheadUsPerPart: overhead(aiSdkObservedPartUs, aiSdkPlainPartUs),
    langchainNoopCallUs,
    langchainObservedCallUs,
    langchainOverheadUsPerCall: overhead(langchainObservedCallUs, langchainNoopCallUs),
    calls: CALLS,
    streams: STREAMS,
    partsPerStream: PARTS,
  };
}
