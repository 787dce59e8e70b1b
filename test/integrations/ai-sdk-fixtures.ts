// Scripted model answers in the AI SDK's own (V3) shapes, for MockLanguageModelV3.
import { simulateReadableStream, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as z from 'zod';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer PART> ? PART : never;

export function usage(input: number, output: number): GenerateResult['usage'] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

const STOP = { unified: 'stop', raw: 'stop' } as const;
const TOOL_CALLS = { unified: 'tool-calls', raw: 'tool_calls' } as const;

/** A plain answer. */
export function answer(text: string, tokens = usage(12, 5), modelId = 'gpt-4o-2024-08-06'): GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: STOP, usage: tokens, warnings: [], response: { modelId } };
}

/** An answer that only calls a tool. */
export function callTool(toolName: string, args: unknown, toolCallId = 'call-1'): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(args) }],
    finishReason: TOOL_CALLS,
    usage: usage(20, 8),
    warnings: [],
    response: { modelId: 'gpt-4o-2024-08-06' },
  };
}

/** The parts of a streamed answer, text in several deltas. */
export function streamedAnswer(deltas: string[], tokens = usage(12, 5)): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-1', modelId: 'gpt-4o-2024-08-06', timestamp: new Date(0) },
    { type: 'text-start', id: 't1' },
    ...deltas.map((delta): StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: STOP, usage: tokens },
  ];
}

/** The parts of a streamed tool call. */
export function streamedToolCall(toolName: string, args: unknown, toolCallId = 'call-1'): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp-0', modelId: 'gpt-4o-2024-08-06', timestamp: new Date(0) },
    { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(args) },
    { type: 'finish', finishReason: TOOL_CALLS, usage: usage(20, 8) },
  ];
}

export function stream(parts: StreamPart[], chunkDelayInMs: number | null = null): StreamResult {
  return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs }) };
}

/** A model that answers the scripted results in turn. */
export function mockModel(script: { generate?: GenerateResult[]; stream?: StreamResult[] }) {
  return new MockLanguageModelV3({
    provider: 'openai.chat',
    modelId: 'gpt-4o',
    ...(script.generate === undefined ? {} : { doGenerate: script.generate }),
    ...(script.stream === undefined ? {} : { doStream: script.stream }),
  });
}

/** The tool of the multi-step runs: looks an order up. */
export const getOrder = tool({
  description: 'Looks an order up by its number',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped', eta: '2026-11-25' }),
});
