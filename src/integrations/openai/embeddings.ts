/**
 * OpenAI `embeddings.create` as one embedding step. The SDK asks for base64 by default
 * and decodes it itself: the result is observed after that decoding, and left as it is.
 */
import type { CallRecording, MethodObserver } from '../provider/recording.js';
import { field, markedOutput, stringField, tokenCount } from '../provider/text.js';

/**
 * The embedded text: one input as it is; several joined by newlines, in order. Token
 * arrays (pre-tokenized input) read as `[N tokens]`.
 */
function embeddingInput(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  if (input.every((item) => typeof item === 'number')) return `[${input.length} tokens]`;
  return input.map((item) => embeddingInput(item)).join('\n');
}

/**
 * Observes `embeddings.create`: one step for the call, with the tokens of all its inputs.
 * @example
 * ```ts
 * new Map([['embeddings.create', embeddingsObserver]]);
 * ```
 */
export const embeddingsObserver: MethodObserver = {
  begin(params): CallRecording {
    const input = embeddingInput(field(params, 'input'));
    const model = stringField(params, 'model');
    return {
      input,
      toolRuns: [],
      aside: true,
      streams: false,
      complete: (response) => {
        const input_tokens = tokenCount(field(field(response, 'usage'), 'prompt_tokens'));
        const embedding = { model: stringField(response, 'model') ?? model ?? '', input };
        return { embedding: input_tokens === undefined ? embedding : { ...embedding, input_tokens }, output: '' };
      },
      stream: () => {
        throw new Error('embeddings do not stream');
      },
      // A failed embedding call embedded nothing: no step, the turn's output says why.
      failed: (error) => ({ output: markedOutput('', { kind: 'call-failed', error }) }),
    };
  },
};
