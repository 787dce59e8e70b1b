import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { Document } from '@langchain/core/documents';
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, type RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel, FakeLLM, FakeRetriever, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NebulyClient, type RecordingError } from '../../src/index.js';
import { NebulyCallbackHandler } from '../../src/integrations/langchain/index.js';
import { trackedRunCount } from '../../src/integrations/langchain/handler.js';
import { nebulyWithReference } from './nebuly.js';

const SYSTEM = 'You are the support assistant of an online shop.';
const QUESTION = 'Where is my order 42?';
const ORDER = { orderId: '42', status: 'shipped', eta: '2026-11-25' };
const ANSWER = 'Order 42 has shipped; it arrives on 2026-11-25.';

/** FakeListChatModel reports no token usage; this one reports it as a provider does. */
class UsageReportingChatModel extends FakeListChatModel {
  constructor(
    responses: string[],
    private readonly report: 'usage_metadata' | 'tokenUsage',
  ) {
    super({ responses });
  }

  override async _generate(messages: BaseMessage[], options?: this['ParsedCallOptions']): Promise<ChatResult> {
    const result = await super._generate(messages, options);
    const generation = result.generations[0];
    if (generation === undefined) return result;
    if (this.report === 'tokenUsage') return { ...result, llmOutput: { tokenUsage: { promptTokens: 31, completionTokens: 7 } } };
    const message = new AIMessage({ content: generation.text, response_metadata: { model_name: 'gpt-4o-2024-08-06' } });
    // Set after construction: the constructor's field type does not admit it under exactOptionalPropertyTypes.
    Object.assign(message, { usage_metadata: { input_tokens: 31, output_tokens: 7, total_tokens: 38 } });
    return { generations: [{ text: generation.text, message }] };
  }
}

const getOrder = tool(async ({ orderId }: { orderId: string }) => JSON.stringify({ ...ORDER, orderId }), {
  name: 'get_order',
  description: 'Looks an order up by its number',
  schema: z.object({ orderId: z.string() }),
});

/**
 * A tool-calling agent of two model calls, written with LangChain's runnables: the model
 * asks for the tool, the tool runs, the model answers with its result.
 */
function supportAgent() {
  const toolCalling = new FakeStreamingChatModel({
    responses: [new AIMessage('')],
    chunks: [new AIMessageChunk({ content: '', tool_calls: [{ id: 'call-1', name: 'get_order', args: { orderId: '42' } }] })],
  }).bindTools([getOrder]);
  const answering = new FakeListChatModel({ responses: [ANSWER] });
  const policies = new FakeRetriever({ output: [new Document({ pageContent: 'Orders ship within 2 days.' })] });
  return RunnableLambda.from(async (input: { question: string }, config?: RunnableConfig) => {
    const context = await policies.invoke(input.question, config);
    const messages: BaseMessage[] = [
      new SystemMessage(`${SYSTEM} ${context.map((document) => document.pageContent).join(' ')}`),
      new HumanMessage(input.question),
    ];
    const call = await toolCalling.invoke(messages, config);
    messages.push(call);
    for (const toolCall of call.tool_calls ?? []) messages.push(await getOrder.invoke({ ...toolCall, type: 'tool_call' }, config));
    const final = await answering.invoke(messages, config);
    return final.content;
  }).withConfig({ runName: 'support-agent' });
}

describe('NebulyCallbackHandler', () => {
  it('a tool-calling agent run: one interaction; retriever, LLM step, tool, LLM step in order', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });

    const answer = await supportAgent().invoke({ question: QUESTION }, { callbacks: [handler] });
    await conversation.end();

    expect(answer).toBe(ANSWER);
    const system = { role: 'system', content: `${SYSTEM} Orders ship within 2 days.` };
    const user = { role: 'user', content: QUESTION };
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: QUESTION,
        output: ANSWER,
        trace: [
          { source: 'FakeRetriever', input: QUESTION, outputs: ['Orders ship within 2 days.'] },
          { model: 'FakeStreamingChatModel', messages: [system, user], output: 'get_order({"orderId":"42"})' },
          { source: 'get_order', input: '{"orderId":"42"}', outputs: [JSON.stringify(ORDER)] },
          {
            model: 'FakeListChatModel',
            messages: [
              system,
              user,
              { role: 'assistant', content: 'get_order({"orderId":"42"})' },
              { role: 'tool', content: JSON.stringify(ORDER) },
            ],
            output: ANSWER,
          },
        ],
      }),
    ]);
    expect(errors).toEqual([]);
  });

  it('a chat model invoked alone: an interaction of its own; tokens from usage_metadata, the provider’s model', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const handler = new NebulyCallbackHandler({ nebuly, endUser: 'user-1' });
    const model = new UsageReportingChatModel(['It left on Monday.'], 'usage_metadata');

    await model.invoke([new SystemMessage(SYSTEM), new HumanMessage(QUESTION)], { callbacks: [handler] });
    await nebuly.flush();

    expect(sent()).toEqual([
      {
        end_user: 'user-1',
        interactions: [
          expect.objectContaining({
            input: QUESTION,
            output: 'It left on Monday.',
            trace: [
              {
                model: 'gpt-4o-2024-08-06',
                messages: [
                  { role: 'system', content: SYSTEM },
                  { role: 'user', content: QUESTION },
                ],
                output: 'It left on Monday.',
                input_tokens: 31,
                output_tokens: 7,
              },
            ],
          }),
        ],
      },
    ]);
  });

  it('tokens from the LLM output’s tokenUsage when the message has no usage_metadata; LLMs too', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });

    await new UsageReportingChatModel(['Shipped.'], 'tokenUsage').invoke(QUESTION, { callbacks: [handler] });
    await new FakeLLM({}).invoke('Say hi', { callbacks: [handler] });
    await conversation.end();

    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: 'Shipped.', trace: [{ model: 'UsageReportingChatModel', input_tokens: 31, output_tokens: 7 }] },
      { input: 'Say hi', output: 'Say hi', trace: [{ model: 'FakeLLM', messages: [{ role: 'user', content: 'Say hi' }], output: 'Say hi' }] },
    ]);
  });

  it('a streamed chain is recorded whole: the chain’s input and the assembled answer', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', SYSTEM],
      ['human', '{question}'],
    ]);
    const chain = prompt.pipe(new FakeListChatModel({ responses: ['It left on Monday.'] }));

    const chunks: string[] = [];
    for await (const chunk of await chain.stream({ question: QUESTION }, { callbacks: [handler] })) {
      chunks.push(String(chunk.content));
    }
    await conversation.end();

    expect(chunks.join('')).toBe('It left on Monday.');
    expect(chunks.length).toBeGreaterThan(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: QUESTION,
        output: 'It left on Monday.',
        trace: [
          {
            model: 'FakeListChatModel',
            messages: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: QUESTION },
            ],
            output: 'It left on Monday.',
          },
        ],
      }),
    ]);
  });

  it('concurrent runs through one handler never mix', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });
    const ask = (question: string, reply: string) =>
      RunnableLambda.from(async (input: string, config?: RunnableConfig) => {
        const model = new FakeListChatModel({ responses: [reply], sleep: 5 });
        let text = '';
        for await (const chunk of await model.stream(input, config)) text += String(chunk.content);
        return text;
      }).invoke(question, { callbacks: [handler] });

    const answers = await Promise.all([ask('first?', 'one two'), ask('second?', 'three four')]);
    await conversation.end();

    expect(answers).toEqual(['one two', 'three four']);
    const interactions = sent()[0]?.interactions ?? [];
    expect(interactions.map(({ input, output, trace }) => ({ input, output, trace }))).toEqual([
      { input: 'first?', output: 'one two', trace: [expect.objectContaining({ output: 'one two' })] },
      { input: 'second?', output: 'three four', trace: [expect.objectContaining({ output: 'three four' })] },
    ]);
  });

  it('a model that fails: the run’s error reaches the caller; the step and the interaction say so', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });
    const failing = new FakeStreamingChatModel({ thrownErrorString: 'provider is down' });

    await expect(failing.invoke(QUESTION, { callbacks: [handler] })).rejects.toThrow('provider is down');
    await conversation.end();

    const failed = '[nebuly: call failed (Error)]';
    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: failed, trace: [{ model: 'FakeStreamingChatModel', messages: [{ role: 'user', content: QUESTION }], output: failed }] },
    ]);
    expect(errors).toEqual([]);
  });

  it('a stream the run stops reading gets no callback from LangChain: its step is left out, the rest is sent', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const handler = new NebulyCallbackHandler({ conversation });
    const firstWords = RunnableLambda.from(async (question: string, config?: RunnableConfig) => {
      const context = await new FakeRetriever({ output: [new Document({ pageContent: 'policy' })] }).invoke(question, config);
      let text = '';
      for await (const chunk of await new FakeListChatModel({ responses: ['It left on Monday.'] }).stream(question, config)) {
        text += String(chunk.content);
        if (text.length >= 3) break; // enough for a preview
      }
      return `${text} (${context.length} document)`;
    });

    expect(await firstWords.invoke(QUESTION, { callbacks: [handler] })).toBe('It  (1 document)');
    await conversation.end();

    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: QUESTION,
        output: 'It  (1 document)',
        trace: [{ source: 'FakeRetriever', input: QUESTION, outputs: ['policy'] }],
      }),
    ]);
    expect(errors).toEqual([]);
  });

  it('a model streamed alone and abandoned: its place is left out when the conversation is sent, said once', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const model = new FakeListChatModel({ responses: ['It left on Monday.'] });
    for await (const chunk of await model.stream(QUESTION, { callbacks: [new NebulyCallbackHandler({ conversation })] })) {
      if (String(chunk.content) !== '') break; // LangChain reports no end for this run
    }
    await conversation.end();

    expect(sent()[0]?.interactions).toEqual([expect.objectContaining({ input: QUESTION, output: '', trace: [] })]);
    expect(errors.map((error) => (error as RecordingError).code)).toEqual(['interaction_open', 'step_unfinished']);
  });

  it('one handler for every request: runs abandoned in conversations that ended are forgotten', async () => {
    // A client that disconnects mid-stream leaves a model run LangChain never ends; a
    // long-lived handler must not keep each one forever.
    const { nebuly } = nebulyWithReference();
    const handler = new NebulyCallbackHandler({ nebuly, endUser: 'user-1' });
    const abandon = async () => {
      const model = new FakeListChatModel({ responses: ['It left on Monday.'] });
      for await (const chunk of await model.stream(QUESTION, { callbacks: [handler] })) if (String(chunk.content) !== '') break;
    };
    for (let n = 0; n < 64; n += 1) await abandon();
    expect(trackedRunCount(handler)).toBe(64);
    await nebuly.shutdown(); // ends their conversations: nothing more can be recorded there
    await abandon(); // the next top-level run sweeps them
    expect(trackedRunCount(handler)).toBe(1);
  });

  it('{ turn }: runs are steps of the caller’s turn, with its manual steps in call order', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    const handler = new NebulyCallbackHandler({ turn });

    turn.retrieval({ source: 'orders-db', input: '42', outputs: ['shipped'] });
    const answer = await new FakeListChatModel({ responses: ['Shipped.'] }).invoke(QUESTION, { callbacks: [handler] });
    turn.feedback({ slug: 'thumbs_up' });
    turn.end({ output: String(answer.content) });
    await conversation.end();

    expect(sent()[0]?.interactions).toMatchObject([
      { input: QUESTION, output: 'Shipped.', trace: [{ source: 'orders-db' }, { output: 'Shipped.' }], feedback_actions: [{ slug: 'thumbs_up' }] },
    ]);
  });

  it('never in the way: a recording the recorder refuses goes to onError; the run is unchanged', async () => {
    const { nebuly, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: QUESTION });
    turn.end({ output: 'answered by hand' });
    await conversation.end(); // the turn can no longer take steps
    const handler = new NebulyCallbackHandler({ turn });

    expect(await supportAgent().invoke({ question: QUESTION }, { callbacks: [handler] })).toBe(ANSWER);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => /after it ended|ended: not recorded/.test(error.message))).toBe(true);
  });

  it('never shows the API key: not in its JSON (LangChain serializes handlers) nor when inspected', () => {
    const nebuly = new NebulyClient({ apiKey: 'sk-secret-123', baseUrl: 'http://127.0.0.1:9' });
    const handler = new NebulyCallbackHandler({ nebuly, endUser: 'user-1' });
    expect(JSON.stringify(handler)).not.toContain('sk-secret');
    expect(inspect(handler, { depth: 10, showHidden: true })).not.toContain('sk-secret');
  });

  it('rejects a bad target at once, naming it', () => {
    expect(() => new NebulyCallbackHandler({ conversation: 'chat-1' } as never)).toThrow(/`target.conversation`/);
  });
});

describe('serverless', () => {
  it('await awaitAllCallbacks(), then waitUntil(nebuly.flush()): the run is delivered before the function is frozen', async () => {
    const { nebuly, reference, sent } = nebulyWithReference();
    reference.faults.add({ delayMs: 50 }); // a real network takes its time
    const pending: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void pending.push(promise);

    async function handler(question: string) {
      const answer = await supportAgent().invoke(
        { question },
        { callbacks: [new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })] },
      );
      await awaitAllCallbacks(); // LangChain runs other handlers in the background
      waitUntil(nebuly.flush());
      return answer;
    }

    expect(await handler(QUESTION)).toBe(ANSWER);
    expect(sent()).toEqual([]); // recorded, not yet delivered: the platform must wait for it
    await Promise.all(pending);
    expect(sent()).toMatchObject([{ end_user: 'user-1', interactions: [{ input: QUESTION, output: ANSWER }] }]);
  });
});
