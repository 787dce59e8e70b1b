/**
 * A language model's answer as the AI SDK's model interface gives it (ai 6,
 * `LanguageModelV3*`), read structurally: a whole result, or a stream of parts passed on
 * to the caller unchanged while the answer is assembled.
 */
import type { Answer } from '../provider/step.js';
import type { Ending } from '../provider/recording.js';
import { tokenCount, toolCallText } from '../provider/text.js';

interface Usage {
  readonly inputTokens?: { readonly total?: number | undefined } | undefined;
  readonly outputTokens?: { readonly total?: number | undefined } | undefined;
}
interface ContentPart {
  readonly type: string;
  readonly text?: string;
  readonly delta?: string;
  readonly toolCallId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
  readonly modelId?: string | undefined;
  readonly usage?: Usage;
  readonly error?: unknown;
}
/** A whole result of `doGenerate`, as read here. */
export interface GenerateResult {
  readonly content: readonly ContentPart[];
  readonly usage?: Usage | undefined;
  readonly response?: { readonly modelId?: string | undefined } | undefined;
}

/**
 * Whether an error is the abort of the call (`abortSignal`, a cancelled stream): a stop,
 * not a failure.
 * @example
 * ```ts
 * isAbort(new DOMException('stopped', 'AbortError')); // true
 * ```
 */
export function isAbort(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'AbortError' || (error as { name?: unknown }).name === 'ResponseAborted')
  );
}

/** An answer being assembled from parts. */
class AnswerParts {
  text = '';
  readonly toolCalls: string[] = [];
  readonly toolCallIds: string[] = [];
  model: string;
  usage: Usage | undefined;

  constructor(model: string) {
    this.model = model;
  }

  toolCall(part: ContentPart): void {
    this.toolCalls.push(toolCallText(part.toolName, part.input));
    if (part.toolCallId !== undefined) this.toolCallIds.push(part.toolCallId);
  }

  answer(): Answer {
    return {
      model: this.model,
      text: this.text,
      toolCalls: this.toolCalls,
      toolCallIds: this.toolCallIds,
      inputTokens: tokenCount(this.usage?.inputTokens?.total),
      outputTokens: tokenCount(this.usage?.outputTokens?.total),
    };
  }
}

/**
 * The answer of a whole result.
 * @example
 * ```ts
 * const answer = generatedAnswer(await doGenerate(), model.modelId);
 * ```
 */
export function generatedAnswer(result: GenerateResult, requested: string): Answer {
  const parts = new AnswerParts(result.response?.modelId ?? requested);
  for (const part of result.content) {
    if (part.type === 'text') parts.text += part.text ?? '';
    else if (part.type === 'tool-call') parts.toolCall(part);
  }
  parts.usage = result.usage;
  return parts.answer();
}

/**
 * The caller's stream: each part passes through unchanged, as soon as it is read (no
 * read-ahead), while the answer is assembled; `onEnd` gets it when the stream ends,
 * fails, is aborted or cancelled (then with what arrived).
 * @example
 * ```ts
 * return { ...result, stream: observedParts(result.stream, model.modelId, params.abortSignal, (answer, ending) => record(answer, ending)) };
 * ```
 */
export function observedParts<PART>(
  source: ReadableStream<PART>,
  requested: string,
  signal: AbortSignal | undefined,
  onEnd: (answer: Answer, ending: Ending) => void,
): ReadableStream<PART> {
  const reader = source.getReader();
  const parts = new AnswerParts(requested);
  let failure: Ending | undefined;
  let ended = false;
  const end = (ending: Ending) => {
    if (ended) return;
    ended = true;
    onEnd(parts.answer(), ending);
  };
  // A stop through the call's `abortSignal` reaches the stream as an error: it is an abort.
  const failed = (error: unknown): Ending => (signal?.aborted === true || isAbort(error) ? { kind: 'aborted' } : { kind: 'failed', error });
  const observe = (part: ContentPart) => {
    switch (part.type) {
      case 'text-delta':
        parts.text += part.delta ?? '';
        break;
      case 'tool-call':
        parts.toolCall(part);
        break;
      case 'response-metadata':
        parts.model = part.modelId ?? parts.model;
        break;
      case 'finish':
        parts.usage = part.usage;
        break;
      case 'error':
        failure ??= failed(part.error);
        break;
    }
  };
  return new ReadableStream<PART>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<PART>;
        try {
          next = await reader.read();
        } catch (error) {
          end(failed(error));
          throw error;
        }
        if (next.done) {
          end(failure ?? { kind: 'complete' });
          controller.close();
          return;
        }
        try {
          observe(next.value as ContentPart);
        } catch {
          // A part of an unexpected shape: the caller still gets it; the step records what was understood.
        }
        controller.enqueue(next.value);
      },
      cancel(reason) {
        end({ kind: 'aborted' });
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
