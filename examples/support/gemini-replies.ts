/**
 * Gemini API answers (`:generateContent`, and the server-sent events of
 * `:streamGenerateContent?alt=sse`), for the fake provider (fake-llm-server.ts), so that
 * the real `@google/genai` client runs against it.
 */
import type { ProviderReply } from './fake-llm-server.js';
import type { FakeAnswer } from './replies.js';

/** Gemini's token counts beyond prompt and candidates. */
export interface GeminiUsageDetail {
  cachedTokens?: number;
  thoughtsTokens?: number;
}

function usageMetadata(answer: FakeAnswer, detail: GeminiUsageDetail, outputTokens = answer.outputTokens ?? 0) {
  const prompt = answer.inputTokens ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: outputTokens,
    totalTokenCount: prompt + outputTokens + (detail.thoughtsTokens ?? 0),
    ...(detail.cachedTokens === undefined ? {} : { cachedContentTokenCount: detail.cachedTokens }),
    ...(detail.thoughtsTokens === undefined ? {} : { thoughtsTokenCount: detail.thoughtsTokens }),
  };
}

function functionCallParts(answer: FakeAnswer): { functionCall: { name: string; args: Record<string, unknown> } }[] {
  return (answer.toolCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.arguments } }));
}

/**
 * A whole `:generateContent` answer: the text, then the function calls, as one candidate.
 * @example
 * ```ts
 * provider.answer(() => geminiResponse({ model: 'gemini-2.5-flash', text: 'Hi!', inputTokens: 5, outputTokens: 2 }));
 * ```
 */
export function geminiResponse(answer: FakeAnswer, detail: GeminiUsageDetail = {}): ProviderReply {
  const parts = [...(answer.text === undefined ? [] : [{ text: answer.text }]), ...functionCallParts(answer)];
  return {
    json: {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usageMetadata(answer, detail),
      modelVersion: answer.model,
      responseId: 'gemini-fake-response',
    },
  };
}

/**
 * A `:streamGenerateContent?alt=sse` answer: one chunk per piece of text, the function
 * calls whole in the last chunk, each chunk with the usage so far (as Gemini sends it).
 * @example
 * ```ts
 * provider.answer(() => ({ events: geminiChunks({ model: 'gemini-2.5-flash', outputTokens: 4 }, { pieces: ['Hel', 'lo'] }) }));
 * ```
 */
export function geminiChunks(answer: FakeAnswer, options: { pieces?: string[] } & GeminiUsageDetail = {}): { data: unknown }[] {
  const pieces = options.pieces ?? (answer.text === undefined ? [] : [answer.text]);
  const calls = functionCallParts(answer);
  const chunks: { parts: unknown[]; last: boolean }[] = pieces.map((piece) => ({ parts: [{ text: piece }], last: false }));
  if (calls.length > 0 || chunks.length === 0) chunks.push({ parts: calls, last: true });
  const final = chunks.at(-1);
  if (final !== undefined) final.last = true;
  return chunks.map(({ parts, last }, index) => ({
    data: {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: usageMetadata(answer, options, last ? answer.outputTokens : index),
      modelVersion: answer.model,
      responseId: 'gemini-fake-response',
    },
  }));
}
