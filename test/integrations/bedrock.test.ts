/**
 * `observeBedrock` with the real `@aws-sdk/client-bedrock-runtime` client, on its default
 * HTTP/2 handler, against a local server that speaks Bedrock's Converse API over
 * cleartext HTTP/2, with ConverseStream's answers in AWS event-stream framing.
 */
import {
  BedrockRuntime,
  BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  type ConverseCommandInput,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  CountTokensCommand,
  type Message,
  ModelStreamErrorException,
  ThrottlingException,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentInteractionId, endConversation, observeBedrock } from 'nebuly-client/bedrock';
import {
  type BedrockReply,
  converseOutput,
  converseStreamEvents,
  type FakeBedrockServer,
  startFakeBedrockServer,
} from '../../examples/support/fake-bedrock-server.js';
import { nebulyWithReference } from './nebuly.js';

let bedrock: FakeBedrockServer;
const clients: { destroy(): void }[] = [];

beforeAll(async () => {
  bedrock = await startFakeBedrockServer(() => ({ status: 500, json: { message: 'not scripted' }, errorType: 'InternalServerException' }));
});
afterAll(() => bedrock.close());
beforeEach(() => {
  bedrock.requests.length = 0;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

const SECRET = 'fake-secret-access-key';
const options = () => ({
  region: 'us-east-1',
  endpoint: bedrock.url,
  credentials: { accessKeyId: 'AKIDFAKEFAKEFAKE', secretAccessKey: SECRET },
  maxAttempts: 1,
});
/** A client on its default request handler (HTTP/2), closed after the test. */
function runtime(): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient(options());
  clients.push(client);
  return client;
}

const MODEL = 'anthropic.claude-test-v1:0';
const INPUT: ConverseCommandInput = {
  modelId: MODEL,
  system: [{ text: 'You are a shop assistant.' }],
  messages: [{ role: 'user', content: [{ text: 'Where is order 7?' }] }],
};
const ANSWER = { text: 'Order 7 shipped.', inputTokens: 25, outputTokens: 6 };

/** Every event of a ConverseStream output's stream. */
async function events(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<ConverseStreamOutput[]> {
  const read: ConverseStreamOutput[] = [];
  for await (const event of stream ?? []) read.push(event);
  return read;
}

describe('ConverseCommand', () => {
  it('gives the caller what the unwrapped client gives, and records one interaction', async () => {
    bedrock.answer(() => ({ json: converseOutput(ANSWER) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const plain = await runtime().send(new ConverseCommand(INPUT));
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const observed = observeBedrock(runtime(), { conversation });
    const output = await observed.send(new ConverseCommand(INPUT));
    expect({ ...output, $metadata: undefined }).toEqual({ ...plain, $metadata: undefined });
    expect(output.output?.message?.content?.[0]?.text).toBe('Order 7 shipped.');
    expect(bedrock.requests[1]).toMatchObject({ operation: 'Converse', modelId: MODEL, httpVersion: '2.0' });
    // Signed as Bedrock expects: the key id is sent, the secret never.
    expect(bedrock.requests[1]?.headers.authorization).toContain('Credential=AKIDFAKEFAKEFAKE/');
    await conversation.end();

    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toEqual([
      {
        input: 'Where is order 7?',
        output: 'Order 7 shipped.',
        time_start: expect.any(String),
        time_end: expect.any(String),
        trace: [
          {
            model: MODEL,
            messages: [
              { role: 'system', content: 'You are a shop assistant.' },
              { role: 'user', content: 'Where is order 7?' },
            ],
            output: 'Order 7 shipped.',
            input_tokens: 25,
            output_tokens: 6,
          },
        ],
        feedback_actions: [],
      },
    ]);
    expect(JSON.stringify(sent())).not.toContain(SECRET);
  });

  it('a call that read or wrote the prompt cache carries its cost, priced as its vendor’s model; tokens stay as reported', async () => {
    bedrock.answer(() => ({ json: converseOutput({ text: 'Order 7 shipped.', inputTokens: 12, outputTokens: 5, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100 }) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    await observed.send(new ConverseCommand({ ...INPUT, modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' }));
    await nebuly.flush();
    expect(errors).toEqual([]);
    // claude-sonnet-4-5: $3 input, $0.30 cache reads, $3.75 cache writes, $15 output a million tokens.
    expect(sent()[0]?.interactions[0]?.trace).toEqual([
      expect.objectContaining({ input_tokens: 1112, output_tokens: 5, cost: Math.round(12 * 3 + 1000 * 0.3 + 100 * 3.75 + 5 * 15) }),
    ]);
  });

  it('prompt-cache tokens count as input; media blocks read as placeholders', async () => {
    bedrock.answer(() => ({ json: converseOutput({ text: 'A red bicycle.', inputTokens: 12, outputTokens: 5, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100 }) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const image = new Uint8Array(4096).fill(7);
    await observed.send(
      new ConverseCommand({
        modelId: MODEL,
        system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
        messages: [{ role: 'user', content: [{ text: 'What is this?' }, { image: { format: 'png', source: { bytes: image } } }] }],
      }),
    );
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'What is this?\n[image]',
      trace: [
        {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'What is this?\n[image]' },
          ],
          output: 'A red bicycle.',
          input_tokens: 1112,
          output_tokens: 5,
        },
      ],
    });
  });

  it('the aggregated BedrockRuntime client’s converse() is observed too; other commands pass through unrecorded', async () => {
    bedrock.answer(() => ({ json: converseOutput(ANSWER) }));
    const { nebuly, sent } = nebulyWithReference();
    const aggregated = new BedrockRuntime(options());
    clients.push(aggregated);
    const observed = observeBedrock(aggregated, { nebuly, endUser: 'user-1' });
    await observed.converse(INPUT);
    await expect(observed.send(new CountTokensCommand({ modelId: MODEL, input: { converse: { messages: INPUT.messages } } }))).rejects.toThrow();
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 shipped.' }]);
  });

  it('the SDK’s retries run as before: one step, for the answer that came', async () => {
    bedrock.answer((_request, index) =>
      index === 0 ? { status: 503, json: { message: 'Service unavailable' }, errorType: 'ServiceUnavailableException' } : { json: converseOutput(ANSWER) },
    );
    const { nebuly, sent, errors } = nebulyWithReference();
    const client = new BedrockRuntimeClient({ ...options(), maxAttempts: 2 });
    clients.push(client);
    const output = await observeBedrock(client, { nebuly, endUser: 'user-1' }).send(new ConverseCommand(INPUT));
    expect(output.$metadata.attempts).toBe(2);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ output: 'Order 7 shipped.', trace: [{ output: 'Order 7 shipped.', input_tokens: 25 }] }]);
  });

  it('a send with a callback gets its result as before, unrecorded', async () => {
    bedrock.answer(() => ({ json: converseOutput(ANSWER) }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const output = await new Promise((resolve, reject) => {
      observed.send(new ConverseCommand(INPUT), (error: unknown, data?: unknown) => (error ? reject(error as Error) : resolve(data)));
    });
    expect(output).toMatchObject({ output: { message: { content: [{ text: 'Order 7 shipped.' }] } } });
    await nebuly.flush();
    expect(sent()).toEqual([]);
  });

  it('a provider error reaches the caller as the SDK’s own exception class; the step says so', async () => {
    bedrock.answer(() => ({ status: 429, json: { message: 'Too many requests, please wait before trying again.' }, errorType: 'ThrottlingException' }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const failure = observed.send(new ConverseCommand(INPUT));
    await expect(failure).rejects.toBeInstanceOf(ThrottlingException);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: '[nebuly: call failed (ThrottlingException)]',
      trace: [{ model: MODEL, output: '[nebuly: call failed (ThrottlingException)]' }],
    });
  });
});

describe('ConverseStreamCommand', () => {
  it('events pass through unchanged; the step has the whole text and the metadata event’s usage', async () => {
    bedrock.answer(() => ({ stream: converseStreamEvents(ANSWER, ['Order 7 ', 'ship', 'ped.']) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const unwrapped = await events((await runtime().send(new ConverseStreamCommand(INPUT))).stream);
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const read = await events((await observed.send(new ConverseStreamCommand(INPUT))).stream);
    expect(read).toEqual(unwrapped);
    expect(read.flatMap((event) => event.contentBlockDelta?.delta?.text ?? [])).toEqual(['Order 7 ', 'ship', 'ped.']);
    expect(bedrock.requests[1]).toMatchObject({ operation: 'ConverseStream', modelId: MODEL });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: 'Order 7 shipped.',
      trace: [{ model: MODEL, output: 'Order 7 shipped.', input_tokens: 25, output_tokens: 6 }],
    });
  });

  it('leaving the loop early records the partial output, marked', async () => {
    bedrock.answer(() => ({ stream: converseStreamEvents(ANSWER, ['Order 7 ', 'ship', 'ped.']), hangAfter: 3 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const { stream } = await observed.send(new ConverseStreamCommand(INPUT));
    for await (const event of stream ?? []) {
      if (event.contentBlockDelta?.delta?.text === 'ship') break;
    }
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' });
  });

  it('an abort through send()’s abortSignal records the partial output, marked aborted', async () => {
    bedrock.answer(() => ({ stream: converseStreamEvents(ANSWER, ['Order 7 ', 'ship', 'ped.']), hangAfter: 3 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const controller = new AbortController();
    const { stream } = await observed.send(new ConverseStreamCommand(INPUT), { abortSignal: controller.signal });
    // The SDK ends the stream once its request is aborted (quietly): the signal says it was aborted.
    const read: string[] = [];
    for await (const event of stream ?? []) {
      read.push(event.contentBlockDelta?.delta?.text ?? '');
      if (event.contentBlockDelta?.delta?.text === 'ship') controller.abort();
    }
    expect(read.join('')).toBe('Order 7 ship');
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' });
  });

  it('an exception event reaches the caller as the SDK’s exception; the partial output is marked failed', async () => {
    const stream = converseStreamEvents(ANSWER, ['Order 7 ', 'shipped.']).slice(0, 2);
    stream.push({ exception: 'modelStreamErrorException', data: { message: 'The model stopped.', originalStatusCode: 500 } });
    bedrock.answer(() => ({ stream }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeBedrock(runtime(), { nebuly, endUser: 'user-1' });
    const output = await observed.send(new ConverseStreamCommand(INPUT));
    await expect(events(output.stream)).rejects.toBeInstanceOf(ModelStreamErrorException);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.output).toBe('Order 7 \n[nebuly: stream failed (ModelStreamErrorException), output incomplete]');
  });
});

const TOOLS: ToolConfiguration = {
  tools: [{ toolSpec: { name: 'get_order', description: 'Looks an order up', inputSchema: { json: { type: 'object', properties: { id: { type: 'number' } } } } } }],
};

/** A content block of what Bedrock received, as the integration's mapping reads it. */
function blockLine(block: ContentBlock): string[] {
  if (block.text !== undefined) return [block.text];
  if (block.toolUse !== undefined) return [`${block.toolUse.name}(${JSON.stringify(block.toolUse.input)})`];
  return [];
}

/** What Bedrock received, as the recorded messages of the integration's mapping say it. */
function expectedMessages(body: { system?: { text?: string }[]; messages: Message[] }): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [];
  const system = body.system?.flatMap((block) => block.text ?? []).join('\n');
  if (system !== undefined && system !== '') messages.push({ role: 'system', content: system });
  for (const message of body.messages) {
    const results = (message.content ?? []).filter((block) => block.toolResult !== undefined);
    for (const block of results) messages.push({ role: 'tool', content: block.toolResult!.content!.map((part) => part.text).join('\n') });
    const lines = (message.content ?? []).flatMap(blockLine);
    if (lines.length > 0 || results.length === 0) messages.push({ role: message.role ?? 'user', content: lines.join('\n') });
  }
  return messages;
}

describe('a tool loop (realism: the trace is what Bedrock received)', () => {
  it('three user messages, streamed and not: three interactions, the parallel tool runs between each one’s two model calls', async () => {
    // The model asks for two orders at once when the last message is the user's words, and answers once it has the results.
    bedrock.answer((request) => {
      const { messages } = request.body as { messages: Message[] };
      const last = messages.at(-1)?.content ?? [];
      const question = [...messages].reverse().find((message) => message.content?.some((block) => block.text !== undefined))?.content?.[0]?.text;
      const answer =
        last[0]?.toolResult !== undefined
          ? { text: `Answer to ${question}`, inputTokens: 40 + messages.length, outputTokens: 9 }
          : {
              text: 'Let me look.',
              toolUses: [
                { toolUseId: `tooluse_${messages.length}_a`, name: 'get_order', input: { id: messages.length } },
                { toolUseId: `tooluse_${messages.length}_b`, name: 'get_order', input: { id: messages.length + 100 } },
              ],
              inputTokens: 30 + messages.length,
              outputTokens: 4,
            };
      const reply: BedrockReply =
        request.operation === 'ConverseStream' ? { stream: converseStreamEvents(answer, answer.text.split(/(?<= )/)) } : { json: converseOutput(answer) };
      return reply;
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const client = observeBedrock(runtime(), target);

    const history: Message[] = [];
    const shown: string[] = [];
    const ids: (string | undefined)[] = [];
    for (const [index, question] of ['Where is order 7?', 'And order 8?', 'Thanks!'].entries()) {
      const streamed = index === 1;
      history.push({ role: 'user', content: [{ text: question }] });
      for (;;) {
        const input = { modelId: MODEL, system: [{ text: 'You are a shop assistant.' }], messages: [...history], toolConfig: TOOLS };
        let content: ContentBlock[];
        if (streamed) {
          // What an app rebuilds from the events: the text, then each tool use with its input JSON.
          const blocks: { text?: string; toolUse?: { toolUseId: string; name: string; input: string } }[] = [];
          for (const event of await events((await client.send(new ConverseStreamCommand(input))).stream)) {
            const at = event.contentBlockStart?.contentBlockIndex ?? event.contentBlockDelta?.contentBlockIndex;
            if (at === undefined) continue;
            const block = (blocks[at] ??= {});
            const use = event.contentBlockStart?.start?.toolUse;
            if (use !== undefined) block.toolUse = { toolUseId: use.toolUseId!, name: use.name!, input: '' };
            const delta = event.contentBlockDelta?.delta;
            if (delta?.text !== undefined) block.text = (block.text ?? '') + delta.text;
            if (delta?.toolUse?.input !== undefined && block.toolUse !== undefined) block.toolUse.input += delta.toolUse.input;
          }
          content = blocks.map((block) =>
            block.toolUse === undefined
              ? { text: block.text ?? '' }
              : { toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name, input: JSON.parse(block.toolUse.input) as Record<string, number> } },
          );
        } else {
          content = (await client.send(new ConverseCommand(input))).output?.message?.content ?? [];
        }
        history.push({ role: 'assistant', content });
        const uses = content.flatMap((block) => (block.toolUse === undefined ? [] : [block.toolUse]));
        if (uses.length === 0) {
          shown.push(content.map((block) => block.text ?? '').join(''));
          break;
        }
        history.push({
          role: 'user',
          content: uses.map((use) => ({ toolResult: { toolUseId: use.toolUseId, content: [{ text: `order ${JSON.stringify(use.input)}: shipped` }] } })),
        });
      }
      ids.push(currentInteractionId(target));
    }
    await endConversation(target);
    await nebuly.flush();

    expect(errors).toEqual([]);
    expect(new Set(ids).size).toBe(3);
    expect(bedrock.requests.map((request) => request.operation)).toEqual(['Converse', 'Converse', 'ConverseStream', 'ConverseStream', 'Converse', 'Converse']);
    // Each model call as Bedrock received it and answered it, in order.
    const calls = bedrock.requests.map((request, index) => {
      const body = request.body as { system?: { text?: string }[]; messages: Message[] };
      const n = body.messages.length;
      const asked = index % 2 === 0;
      return {
        model: MODEL,
        messages: expectedMessages(body),
        output: asked ? `Let me look.\nget_order({"id":${n}})\nget_order({"id":${n + 100}})` : shown[(index - 1) / 2]!,
        input_tokens: (asked ? 30 : 40) + n,
        output_tokens: asked ? 4 : 9,
      };
    });
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual(
      ['Where is order 7?', 'And order 8?', 'Thanks!'].map((question, turn) => {
        // The tool uses and their results, as the second call of the turn sent them back.
        const { messages } = bedrock.requests[turn * 2 + 1]!.body as { messages: Message[] };
        const uses = messages.at(-2)!.content!.flatMap((block) => (block.toolUse === undefined ? [] : [block.toolUse]));
        const runs = messages.at(-1)!.content!.map((block) => {
          const use = uses.find((candidate) => candidate.toolUseId === block.toolResult!.toolUseId)!;
          return { source: use.name, input: JSON.stringify(use.input), outputs: [block.toolResult!.content![0]!.text] };
        });
        return {
          input: question,
          output: shown[turn],
          time_start: expect.any(String),
          time_end: expect.any(String),
          trace: [calls[turn * 2], ...runs, calls[turn * 2 + 1]],
          feedback_actions: [],
        };
      }),
    );
  });
});

describe('targets', () => {
  it('a bad target is a TypeError at once', () => {
    expect(() => observeBedrock(runtime(), { endUser: 'x' } as never)).toThrow(TypeError);
    expect(() => observeBedrock(null as never)).toThrow(/BedrockRuntimeClient/);
  });
});
