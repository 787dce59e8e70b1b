/**
 * What LangChain chat models put in their messages, as real providers do: the streamed
 * model name in `generationInfo` (ChatOpenAI), tool calls repeated as content blocks
 * (ChatAnthropic). Issue 18, items 5 and 7.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { nebulyWithReference } from './nebuly.js';

/** A chat model that answers the scripted messages in turn, streamed chunk by chunk as a provider's are. */
class ScriptedChatModel extends BaseChatModel {
  readonly #answers: AIMessageChunk[][];
  #next = 0;

  constructor(answers: AIMessageChunk[][]) {
    super({});
    this.#answers = answers;
  }

  _llmType(): string {
    return 'scripted';
  }

  override invocationParams(): Record<string, unknown> {
    return { model: 'requested-model' };
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) whole = whole === undefined ? chunk : whole.concat(chunk);
    return { generations: whole === undefined ? [] : [whole] };
  }

  override async *_streamResponseChunks(_messages: BaseMessage[], _options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun) {
    const chunks = this.#answers[this.#next++] ?? [];
    for (const [index, message] of chunks.entries()) {
      const last = index === chunks.length - 1;
      // ChatOpenAI streams the answering model's name in the last chunk's generationInfo.
      const chunk = new ChatGenerationChunk({
        message,
        text: typeof message.content === 'string' ? message.content : '',
        ...(last ? { generationInfo: { model_name: 'gpt-4o-2024-08-06', finish_reason: 'stop' } } : {}),
      });
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text);
    }
  }
}

/**
 * What LangGraph's `streamMode: 'messages'` (and `agent.stream`) adds to a run: a handler
 * that prefers streaming, so that the model streams inside `invoke` and its run ends
 * with the chunks concatenated, the model name left in `generationInfo`.
 */
class MessagesStreamHandler extends BaseCallbackHandler {
  name = 'messages-stream';
  lc_prefer_streaming = true;
  readonly tokens: string[] = [];

  override handleLLMNewToken(token: string): void {
    this.tokens.push(token);
  }
}

describe('LangChain chat models as providers fill them', () => {
  it('a streamed run records the model that answered (generationInfo.model_name), not the one asked for', async () => {
    const { nebuly, sent } = nebulyWithReference();
    const model = new ScriptedChatModel([[new AIMessageChunk('Order 42 '), new AIMessageChunk('shipped.')]]);
    const streaming = new MessagesStreamHandler();
    await model.invoke('Where is my order 42?', { callbacks: [streaming, new NebulyCallbackHandler({ nebuly, endUser: 'user-1' })] });
    await nebuly.flush();
    expect(streaming.tokens.join('')).toBe('Order 42 shipped.');
    expect(sent()[0]?.interactions[0]).toMatchObject({ output: 'Order 42 shipped.', trace: [{ model: 'gpt-4o-2024-08-06', output: 'Order 42 shipped.' }] });
  });

  it('ChatAnthropic-style content blocks: tool_use and input_json_delta are no text; the tool loop is one interaction', async () => {
    const { nebuly, sent, errors } = nebulyWithReference();
    // As ChatAnthropic streams a tool call: a text block, then tool_use with its input in input_json_delta pieces.
    const asking = [
      new AIMessageChunk({ content: [{ type: 'text', text: 'Let me check.', index: 0 }] }),
      new AIMessageChunk({
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_order', input: '', index: 1 }],
        tool_call_chunks: [{ id: 'toolu_1', name: 'get_order', args: '', index: 1 }],
      }),
      new AIMessageChunk({
        content: [{ type: 'input_json_delta', input: '{"orderId":"42"}', index: 1 }],
        tool_call_chunks: [{ args: '{"orderId":"42"}', index: 1 }],
      }),
    ];
    const model = new ScriptedChatModel([asking, [new AIMessageChunk('It shipped.')]]);
    const handler = new NebulyCallbackHandler({ nebuly, endUser: 'user-1' });

    const history: BaseMessage[] = [new HumanMessage('Where is my order 42?')];
    const first = await model.invoke(history, { callbacks: [handler] });
    history.push(new AIMessage({ content: first.content, tool_calls: first.tool_calls ?? [] }));
    history.push(new ToolMessage({ content: 'shipped', tool_call_id: 'toolu_1' }));
    await model.invoke(history, { callbacks: [handler] });
    await nebuly.flush();

    expect(errors).toEqual([]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.interactions).toEqual([
      expect.objectContaining({
        input: 'Where is my order 42?',
        output: 'It shipped.',
        trace: [
          expect.objectContaining({ output: 'Let me check.\nget_order({"orderId":"42"})' }),
          { source: 'get_order', input: '{"orderId":"42"}', outputs: ['shipped'] },
          expect.objectContaining({
            output: 'It shipped.',
            messages: [
              { role: 'user', content: 'Where is my order 42?' },
              { role: 'assistant', content: 'Let me check.\nget_order({"orderId":"42"})' },
              { role: 'tool', content: 'shipped' },
            ],
          }),
        ],
      }),
    ]);
  });
});
