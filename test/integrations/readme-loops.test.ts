/**
 * Integrations never change what the app receives: each provider's README streaming loop,
 * written as plainly as there (no optional chaining), reads the same from an observed
 * client as from the bare one. OpenAI's chat streams, the one integration that changes a
 * request (`includeUsage`), are in openai/chat-stream.test.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { observeAnthropic } from 'nebuly-client/anthropic';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { anthropicEvents } from '../../examples/support/replies.js';
import { collect, provider, useFakeProvider } from '../helpers/fake-provider.js';
import { mockModel, stream, streamedAnswer, usage } from './ai-sdk-fixtures.js';
import { nebulyWithReference } from './nebuly.js';

useFakeProvider({ status: 500, json: { type: 'error', error: { type: 'api_error', message: 'not scripted' } } });

describe('Anthropic', () => {
  const anthropic = () => new Anthropic({ apiKey: 'sk-ant-fake-key', baseURL: provider.url, maxRetries: 0 });
  const params = { model: 'claude-test-model', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Where is order 7?' }] };
  const answer = { model: 'claude-test-model-20260101', text: 'Order 7 shipped.', inputTokens: 25, outputTokens: 6 };

  /** The README's loop over `messages.create({ stream: true })`. */
  async function readmeLoop(client: Anthropic): Promise<{ types: string[]; text: string }> {
    const events = await client.messages.create({ ...params, stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of events) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    return { types, text };
  }

  it('create({ stream: true }) and messages.stream() read the same observed as bare', async () => {
    provider.answer(() => ({ events: anthropicEvents(answer, { pieces: ['Order 7 ', 'shipped.'] }) }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const bare = await readmeLoop(anthropic());
    expect(await readmeLoop(observed)).toEqual(bare);
    expect(bare.text).toBe('Order 7 shipped.');

    const texts = await Promise.all(
      [anthropic(), observed].map(async (client) => {
        let text = '';
        const helper = client.messages.stream(params).on('text', (delta) => (text += delta));
        const final = await helper.finalMessage();
        return { text, final };
      }),
    );
    expect(texts[1]).toEqual(texts[0]);
    await nebuly.flush();
    expect(sent()).toHaveLength(2);
  });
});

describe('AI SDK middleware', () => {
  it('streamText: textStream and fullStream read the same observed as bare', async () => {
    const parts = streamedAnswer(['It left ', 'on ', 'Monday.'], usage(30, 6));
    const { nebuly, sent } = nebulyWithReference();
    const bare = streamText({ model: mockModel({ stream: [stream(parts)] }), prompt: 'Where is it?' });
    const observed = streamText({
      model: wrapLanguageModel({ model: mockModel({ stream: [stream(parts)] }), middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }) }),
      prompt: 'Where is it?',
    });
    // The README's loop.
    const read = async (result: typeof bare) => {
      let text = '';
      for await (const textPart of result.textStream) text += textPart;
      return text;
    };
    expect(await read(observed)).toBe(await read(bare));
    const fullParts = async (result: typeof bare) => (await collect(result.fullStream)).map((part) => part.type);
    expect(await fullParts(observed)).toEqual(await fullParts(bare));
    expect(await observed.usage).toEqual(await bare.usage);
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'It left on Monday.', trace: [{ input_tokens: 30, output_tokens: 6 }] });
  });
});

/** A chat model that streams its scripted chunks, as a provider's does. */
class StreamingModel extends BaseChatModel {
  _llmType(): string {
    return 'streaming';
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) whole = whole === undefined ? chunk : whole.concat(chunk);
    return { generations: whole === undefined ? [] : [whole] };
  }

  override async *_streamResponseChunks(_messages: BaseMessage[], _options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun) {
    for (const piece of ['Order 42 ', 'shipped.']) {
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk(piece), text: piece });
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text);
    }
  }
}

describe('LangChain callback handler', () => {
  it('model.stream(): the README loop reads the same chunks with the handler as without', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const read = async (callbacks: NebulyCallbackHandler[]) => {
      const contents: unknown[] = [];
      for await (const chunk of await new StreamingModel({}).stream('Where is order 42?', { callbacks })) contents.push(chunk.content);
      return contents;
    };
    const bare = await read([]);
    expect(await read([new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })])).toEqual(bare);
    expect(bare.join('')).toBe('Order 42 shipped.');
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 42 shipped.' });
  });
});
