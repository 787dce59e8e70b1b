/**
 * `observeGoogleGenAI` with the real `@google/genai` client against a local server that
 * speaks the Gemini API (`:generateContent`, `:streamGenerateContent?alt=sse`).
 */
import { ApiError, type CallableTool, type Content, type FunctionDeclaration, type GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { currentInteractionId, endConversation, observeGoogleGenAI } from 'nebuly-client/google-genai';
import { geminiChunks, geminiResponse } from '../../examples/support/gemini-replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider({ status: 500, json: { error: { code: 500, message: 'not scripted', status: 'INTERNAL' } } });

const genai = () => new GoogleGenAI({ apiKey: 'gemini-fake-key', httpOptions: { baseUrl: provider.url } });

const PARAMS = {
  model: 'gemini-test',
  contents: 'Where is order 7?',
  config: { systemInstruction: 'You are a shop assistant.' },
};
const ANSWER = { model: 'gemini-test-001', text: 'Order 7 shipped.', inputTokens: 25, outputTokens: 6 };

/** A response without the HTTP response the SDK keeps beside it (its `date` header differs from call to call). */
const withoutHttp = (response: GenerateContentResponse) => ({ ...response, sdkHttpResponse: undefined });

describe('models.generateContent', () => {
  it('gives the caller what the unwrapped client gives, and records one interaction', async () => {
    provider.answer(() => geminiResponse(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    const plain = await genai().models.generateContent(PARAMS);
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const observed = observeGoogleGenAI(genai(), { conversation });
    const response = await observed.models.generateContent(PARAMS);
    expect(withoutHttp(response)).toEqual(withoutHttp(plain));
    expect(response.text).toBe('Order 7 shipped.');
    expect(provider.requests[1]?.path).toBe('/v1beta/models/gemini-test:generateContent');
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
            model: 'gemini-test-001',
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
    expect(JSON.stringify(sent())).not.toContain('gemini-fake-key');
  });

  it('a call that read cached input or thought carries its cost, from the price table; tokens stay as reported', async () => {
    provider.answer(() => geminiResponse({ model: 'gemini-2.5-flash', text: 'Order 7 shipped.', inputTokens: 1000, outputTokens: 20 }, { cachedTokens: 800, thoughtsTokens: 40 }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    await observed.models.generateContent(PARAMS);
    await nebuly.flush();
    expect(errors).toEqual([]);
    // gemini-2.5-flash: $0.30 input, $0.03 cached input, $2.50 output (thinking included) a million tokens.
    expect(sent()[0]?.interactions[0]?.trace).toEqual([
      expect.objectContaining({ model: 'gemini-2.5-flash', input_tokens: 1000, output_tokens: 20, cost: Math.round(200 * 0.3 + 800 * 0.03 + 60 * 2.5) }),
    ]);
  });

  it('media parts read as placeholders, thoughts are no output; tokens are prompt and candidates', async () => {
    provider.answer(() => {
      const reply = geminiResponse({ model: 'gemini-test-001', text: 'A red bicycle.', inputTokens: 1290, outputTokens: 5 }, { cachedTokens: 1024, thoughtsTokens: 40 });
      const json = reply as { json: { candidates: { content: { parts: unknown[] } }[] } };
      json.json.candidates[0]!.content.parts.unshift({ text: 'The user shows a picture…', thought: true });
      return reply;
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    const image = Buffer.alloc(4096, 7).toString('base64');
    await observed.models.generateContent({
      model: 'models/gemini-test',
      contents: [{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: image } }, { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/manual.pdf' } }] }],
    });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'What is this?\n[image]\n[file]',
      output: 'A red bicycle.',
      trace: [{ model: 'gemini-test-001', messages: [{ role: 'user', content: 'What is this?\n[image]\n[file]' }], output: 'A red bicycle.', input_tokens: 1290, output_tokens: 5 }],
    });
    expect(JSON.stringify(sent())).not.toContain(image.slice(0, 64));
  });

  it('a provider error reaches the caller as the SDK’s ApiError; the step says so', async () => {
    provider.answer(() => ({ status: 429, json: { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } } }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    const failure = observed.models.generateContent(PARAMS);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 429 });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: '[nebuly: call failed (429 ApiError)]',
      trace: [{ model: 'gemini-test', output: '[nebuly: call failed (429 ApiError)]' }],
    });
  });
});

describe('models.generateContentStream', () => {
  it('chunks pass through unchanged; the step has the whole text and the last chunk’s usage', async () => {
    provider.answer(() => ({ events: geminiChunks(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }) }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const unwrapped = await collect(await genai().models.generateContentStream(PARAMS));
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    const chunks = await collect(await observed.models.generateContentStream(PARAMS));
    expect(chunks.map(withoutHttp)).toEqual(unwrapped.map(withoutHttp));
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Order 7 ', 'ship', 'ped.']);
    expect(provider.requests[1]?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent');
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]).toMatchObject({
      input: 'Where is order 7?',
      output: 'Order 7 shipped.',
      trace: [{ model: 'gemini-test-001', output: 'Order 7 shipped.', input_tokens: 25, output_tokens: 6 }],
    });
  });

  it('leaving the loop early records the partial output, marked', async () => {
    provider.answer(() => ({ events: geminiChunks(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }), hangAfter: 2 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    for await (const chunk of await observed.models.generateContentStream(PARAMS)) {
      if (chunk.text === 'ship') break;
    }
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' });
  });

  it('an abort through config.abortSignal records the partial output, marked aborted', async () => {
    provider.answer(() => ({ events: geminiChunks(ANSWER, { pieces: ['Order 7 ', 'ship', 'ped.'] }), hangAfter: 2 }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    const controller = new AbortController();
    const stream = await observed.models.generateContentStream({ ...PARAMS, config: { ...PARAMS.config, abortSignal: controller.signal } });
    const read: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) {
          read.push(chunk.text ?? '');
          if (read.length === 2) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 7 ship\n[nebuly: stream aborted, output incomplete]' });
  });

  it('an error in the stream reaches the caller as the SDK’s ApiError; the partial output is marked failed', async () => {
    const events: { data: unknown }[] = geminiChunks(ANSWER, { pieces: ['Order 7 ', 'shipped.'] }).slice(0, 1);
    events.push({ data: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } });
    provider.answer(() => ({ events }));
    const { nebuly, sent, errors } = nebulyWithReference();
    const observed = observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' });
    await expect(collect(await observed.models.generateContentStream(PARAMS))).rejects.toBeInstanceOf(ApiError);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.output).toBe('Order 7 \n[nebuly: stream failed (503 ApiError), output incomplete]');
  });
});

const GET_ORDER: FunctionDeclaration = {
  name: 'get_order',
  description: 'Looks an order up',
  parametersJsonSchema: { type: 'object', properties: { id: { type: 'number' } } },
};

/** The text parts of a response's first candidate, without the SDK's warning about function calls. */
function textOf(response: GenerateContentResponse): string {
  return (response.candidates?.[0]?.content?.parts ?? []).flatMap((part) => (part.text === undefined ? [] : [part.text])).join('');
}

/** What the Gemini API received, as the recorded messages of the integration's mapping say it. */
function expectedMessages(body: { contents: Content[]; systemInstruction?: Content }): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [];
  const system = body.systemInstruction?.parts?.map((part) => part.text).join('\n');
  if (system !== undefined) messages.push({ role: 'system', content: system });
  for (const content of body.contents) {
    const responses = (content.parts ?? []).filter((part) => part.functionResponse !== undefined);
    for (const part of responses) messages.push({ role: 'tool', content: JSON.stringify(part.functionResponse?.response) });
    const lines = (content.parts ?? []).flatMap((part) =>
      part.text !== undefined ? [part.text] : part.functionCall !== undefined ? [`${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`] : [],
    );
    if (lines.length > 0 || responses.length === 0) messages.push({ role: content.role === 'model' ? 'assistant' : 'user', content: lines.join('\n') });
  }
  return messages;
}

describe('a chat with function calls (realism: the trace is what the Gemini API received)', () => {
  it('three user messages through chats.create(): three interactions, each function run a retrieval step between its two model calls', async () => {
    // The model asks for get_order when the last content is the user's words, and answers once it has the function's response.
    provider.answer((request) => {
      const { contents } = request.body as { contents: Content[] };
      const last = contents.at(-1)?.parts ?? [];
      const streamed = request.path.endsWith(':streamGenerateContent');
      const question = [...contents].reverse().find((content) => content.role === 'user' && content.parts?.some((part) => part.text !== undefined))?.parts?.[0]?.text;
      const answer =
        last[0]?.functionResponse !== undefined
          ? { model: 'gemini-test-001', text: `Answer to ${question}`, inputTokens: 40 + contents.length, outputTokens: 9 }
          : {
              model: 'gemini-test-001',
              // Two calls of one function at once: Gemini gives them no id, the responses answer them in order.
              toolCalls: [
                { name: 'get_order', arguments: { id: contents.length } },
                { name: 'get_order', arguments: { id: contents.length + 100 } },
              ],
              inputTokens: 30 + contents.length,
              outputTokens: 4,
            };
      return streamed ? { events: geminiChunks(answer, { pieces: answer.text === undefined ? [] : ['Answer ', answer.text.slice('Answer '.length)] }) } : geminiResponse(answer);
    });
    const { nebuly, sent, errors } = nebulyWithReference();
    const target = { nebuly, endUser: 'user-1', conversationId: 'chat-1' };
    const ai = observeGoogleGenAI(genai(), target);
    const chat = ai.chats.create({ model: 'gemini-test', config: { systemInstruction: 'You are a shop assistant.', tools: [{ functionDeclarations: [GET_ORDER] }] } });

    const shown: string[] = [];
    const ids: (string | undefined)[] = [];
    for (const [index, question] of ['Where is order 7?', 'And order 8?', 'Thanks!'].entries()) {
      const streamed = index === 1;
      let message: string | { functionResponse: { name: string; response: Record<string, unknown> } }[] = question;
      for (;;) {
        let text = '';
        let calls: { name?: string; args?: Record<string, unknown> }[] = [];
        if (streamed) {
          for await (const chunk of await chat.sendMessageStream({ message })) {
            text += textOf(chunk);
            calls.push(...(chunk.functionCalls ?? []));
          }
        } else {
          const response = await chat.sendMessage({ message });
          text = textOf(response);
          calls = response.functionCalls ?? [];
        }
        if (calls.length === 0) {
          shown.push(text);
          break;
        }
        message = calls.map((call) => ({ functionResponse: { name: call.name ?? '', response: { result: `order ${JSON.stringify(call.args)}: shipped` } } }));
      }
      ids.push(currentInteractionId(target));
    }
    await endConversation(target);
    await nebuly.flush();

    expect(errors).toEqual([]);
    expect(new Set(ids).size).toBe(3);
    // Each model call as the provider received it and answered it, in order.
    const calls = provider.requests.map((request, index) => {
      const body = request.body as { contents: Content[]; systemInstruction?: Content };
      const answered = index % 2 === 0 ? `get_order({"id":${body.contents.length}})\nget_order({"id":${body.contents.length + 100}})` : shown[(index - 1) / 2]!;
      return {
        model: 'gemini-test-001',
        messages: expectedMessages(body),
        output: answered,
        input_tokens: (index % 2 === 0 ? 30 : 40) + body.contents.length,
        output_tokens: index % 2 === 0 ? 4 : 9,
      };
    });
    expect(provider.requests).toHaveLength(6);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual(
      ['Where is order 7?', 'And order 8?', 'Thanks!'].map((question, turn) => {
        const asked = calls[turn * 2]!;
        const answered = calls[turn * 2 + 1]!;
        // The function calls and their responses, as the second call of the turn sent them back.
        const { contents } = provider.requests[turn * 2 + 1]!.body as { contents: Content[] };
        const functionCalls = contents.at(-2)!.parts!.map((part) => part.functionCall!);
        const runs = contents.at(-1)!.parts!.map((part, n) => ({
          source: part.functionResponse!.name,
          input: JSON.stringify(functionCalls[n]!.args),
          outputs: [JSON.stringify(part.functionResponse!.response)],
        }));
        return {
          input: question,
          output: shown[turn],
          time_start: expect.any(String),
          time_end: expect.any(String),
          trace: [asked, ...runs, answered],
          feedback_actions: [],
        };
      }),
    );
  });
});

describe('what else the client does', () => {
  it('a function call with an id is answered by the response of that id', async () => {
    provider.answer(() => geminiResponse(ANSWER));
    const { nebuly, sent, errors } = nebulyWithReference();
    await observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.generateContent({
      model: 'gemini-test',
      contents: [
        { role: 'user', parts: [{ text: 'Where are orders 7 and 8?' }] },
        {
          role: 'model',
          parts: [{ functionCall: { id: 'call-a', name: 'get_order', args: { id: 7 } } }, { functionCall: { id: 'call-b', name: 'get_order', args: { id: 8 } } }],
        },
        // Answered in the other order: the ids say which is which.
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call-b', name: 'get_order', response: { result: 'order 8: packed' } } },
            { functionResponse: { id: 'call-a', name: 'get_order', response: { result: 'order 7: shipped' } } },
          ],
        },
      ],
    });
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions[0]?.trace).toMatchObject([
      { source: 'get_order', input: '{"id":8}', outputs: ['{"result":"order 8: packed"}'] },
      { source: 'get_order', input: '{"id":7}', outputs: ['{"result":"order 7: shipped"}'] },
      { output: 'Order 7 shipped.' },
    ]);
  });

  it('automatic function calling (a CallableTool) is one observed call: one LLM step, the final answer', async () => {
    provider.answer((_request, index) =>
      index === 0 ? geminiResponse({ model: 'gemini-test-001', toolCalls: [{ name: 'get_order', arguments: { id: 7 } }] }) : geminiResponse(ANSWER),
    );
    const { nebuly, sent, errors } = nebulyWithReference();
    const tool: CallableTool = {
      tool: () => Promise.resolve({ functionDeclarations: [GET_ORDER] }),
      callTool: (calls) => Promise.resolve(calls.map((call) => ({ functionResponse: { name: call.name ?? '', response: { result: 'shipped' } } }))),
    };
    const response = await observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.generateContent({ ...PARAMS, config: { ...PARAMS.config, tools: [tool] } });
    expect(response.text).toBe('Order 7 shipped.');
    expect(provider.requests).toHaveLength(2);
    await nebuly.flush();
    expect(errors).toEqual([]);
    expect(sent()[0]?.interactions).toMatchObject([{ input: 'Where is order 7?', output: 'Order 7 shipped.', trace: [{ output: 'Order 7 shipped.' }] }]);
    expect(sent()[0]?.interactions[0]?.trace).toHaveLength(1);
  });

  it('other methods pass through unrecorded', async () => {
    provider.answer(() => ({ json: { embeddings: [{ values: [0.1, 0.2] }] } }));
    const { nebuly, sent } = nebulyWithReference();
    const result = await observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.embedContent({ model: 'text-embedding-004', contents: 'shipping' });
    expect(result.embeddings?.[0]?.values).toEqual([0.1, 0.2]);
    await nebuly.flush();
    expect(sent()).toEqual([]);
  });

  it('reads the client’s version from its user agent: a tested major says nothing, another is told once', async () => {
    provider.answer(() => geminiResponse(ANSWER));
    const { nebuly, info } = nebulyWithReference();
    await observeGoogleGenAI(genai(), { nebuly, endUser: 'user-1' }).models.generateContent(PARAMS);
    expect(info).toEqual([]);
    const response = (await genai().models.generateContent(PARAMS)) as unknown;
    const future = {
      apiClient: { getDefaultHeaders: () => ({ 'user-agent': 'google-genai-sdk/9.1.0 gl-node/v30.0.0' }) },
      models: { generateContent: () => Promise.resolve(response) },
    };
    const observed = observeGoogleGenAI(future, { nebuly, endUser: 'user-1' });
    await observed.models.generateContent();
    await observed.models.generateContent();
    expect(info).toEqual([expect.stringContaining('@google/genai 9.1.0 is a version this integration was not tested with (tested: 2.x, 3.x)')]);
  });
});

describe('targets', () => {
  it('without a target, each call goes to the ambient one of withConversation', async () => {
    provider.answer(() => geminiResponse(ANSWER));
    const { nebuly, sent } = nebulyWithReference();
    const ai = observeGoogleGenAI(genai());
    await nebuly.withConversation({ endUser: 'user-9', conversationId: 'chat-9' }, () => ai.models.generateContent(PARAMS));
    await ai.models.generateContent(PARAMS); // outside: not recorded
    await endConversation({ nebuly, endUser: 'user-9', conversationId: 'chat-9' });
    await nebuly.flush();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatchObject({ end_user: 'user-9', interactions: [{ input: 'Where is order 7?', output: 'Order 7 shipped.' }] });
  });

  it('a bad target is a TypeError at once', () => {
    expect(() => observeGoogleGenAI(genai(), { endUser: 'x' } as never)).toThrow(TypeError);
    expect(() => observeGoogleGenAI(null as never)).toThrow(/GoogleGenAI client/);
  });
});
