/**
 * Provider answers in the shapes OpenAI and Anthropic send, for the fake provider
 * (fake-llm-server.ts): whole JSON bodies and the server-sent events of a stream.
 */
import type { ProviderReply, ServerEvent } from './fake-llm-server.js';

/** A tool call the fake model makes: its name and its JSON arguments. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the fake model answers. */
export interface FakeAnswer {
  model: string;
  text?: string;
  toolCalls?: FakeToolCall[];
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * OpenAI `POST /chat/completions`, not streamed.
 * @example
 * ```ts
 * provider.answer(() => openAIChatCompletion({ model: 'gpt-4o', text: 'Hi!' }));
 * ```
 */
export function openAIChatCompletion(answer: FakeAnswer): ProviderReply {
  const toolCalls = (answer.toolCalls ?? []).map((call, index) => ({
    id: `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: answer.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: answer.inputTokens ?? 0,
        completion_tokens: answer.outputTokens ?? 0,
        total_tokens: (answer.inputTokens ?? 0) + (answer.outputTokens ?? 0),
      },
    },
  };
}

/**
 * OpenAI `POST /chat/completions` with `stream: true`: the text in `pieces`, tool calls
 * with their arguments split in two deltas, then (when `withUsage`) the usage chunk
 * with empty `choices`, then `[DONE]`. As OpenAI does, `withUsage` also puts `usage: null`
 * on every other chunk.
 * @example
 * ```ts
 * provider.answer(() => ({ events: openAIChatChunks({ model: 'gpt-4o', text: 'Hi!' }, { withUsage: true }) }));
 * ```
 */
export function openAIChatChunks(answer: FakeAnswer, options: { pieces?: string[]; withUsage?: boolean } = {}): ServerEvent[] {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model: answer.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...(options.withUsage === true ? { usage: null } : {}) },
  });
  const events: ServerEvent[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of options.pieces ?? (answer.text === undefined ? [] : [answer.text])) events.push(chunk({ content: piece }));
  (answer.toolCalls ?? []).forEach((call, index) => {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    events.push(chunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: call.name, arguments: json.slice(0, half) } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] }));
  });
  events.push(chunk({}, (answer.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'));
  if (options.withUsage === true) {
    events.push({
      data: {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: answer.inputTokens ?? 0,
          completion_tokens: answer.outputTokens ?? 0,
          total_tokens: (answer.inputTokens ?? 0) + (answer.outputTokens ?? 0),
        },
      },
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}

/**
 * OpenAI `POST /responses`, not streamed: the response object (`id` `resp_1`), its text
 * as one output message; also what a stream's `response.completed` event carries.
 * @example
 * ```ts
 * provider.answer(() => ({ json: openAIResponse({ model: 'gpt-4.1', text: 'Hi!' }) }));
 * ```
 */
export function openAIResponse(answer: FakeAnswer): Record<string, unknown> {
  const text = answer.text ?? '';
  const input = answer.inputTokens ?? 0;
  const output = answer.outputTokens ?? 0;
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: answer.model,
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  };
}

/**
 * Anthropic `POST /v1/messages`, not streamed.
 * @example
 * ```ts
 * provider.answer(() => anthropicMessage({ model: 'claude-test', text: 'Hi!' }));
 * ```
 */
export function anthropicMessage(answer: FakeAnswer): ProviderReply {
  const content: Record<string, unknown>[] = [];
  if (answer.text !== undefined) content.push({ type: 'text', text: answer.text, citations: null });
  (answer.toolCalls ?? []).forEach((call, index) => content.push({ type: 'tool_use', id: `toolu_${index}`, name: call.name, input: call.arguments }));
  return {
    json: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content,
      stop_reason: (answer.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: answer.inputTokens ?? 0, output_tokens: answer.outputTokens ?? 0 },
    },
  };
}

/**
 * Anthropic `POST /v1/messages` with `stream: true`: the events of one message.
 * @example
 * ```ts
 * provider.answer(() => ({ events: anthropicEvents({ model: 'claude-test', text: 'Hi!' }) }));
 * ```
 */
export function anthropicEvents(answer: FakeAnswer, options: { pieces?: string[] } = {}): ServerEvent[] {
  const event = (type: string, data: Record<string, unknown>): ServerEvent => ({ event: type, data: { type, ...data } });
  const events: ServerEvent[] = [
    event('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: answer.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: answer.inputTokens ?? 0, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  const pieces = options.pieces ?? (answer.text === undefined ? [] : [answer.text]);
  if (pieces.length > 0) {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } }));
    for (const piece of pieces) events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  for (const call of answer.toolCalls ?? []) {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    events.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${index}`, name: call.name, input: {} } }));
    events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }));
    events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }));
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  events.push(
    event('message_delta', {
      delta: { stop_reason: (answer.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: answer.outputTokens ?? 0 },
    }),
  );
  events.push(event('message_stop', {}));
  return events;
}
