import type { EmbeddingModelMiddleware, LanguageModelMiddleware } from 'ai';
import type { Ending, Finished } from '../provider/recording.js';
import { failedCall, llmFinished, type Answer } from '../provider/step.js';
import { lastUserText, markedOutput, tokenCount, toolCallText, type StepMessage } from '../provider/text.js';
import { beginCall, checkTarget, type NebulyTarget, type ObservedCall, type StepSlot } from '../target.js';
import { isAwaitedByTelemetry } from './handoff.js';
import { lastUserWords, stepMessages } from './messages.js';

/**
 * What {@link nebulyMiddleware} returns: a language-model middleware for
 * `wrapLanguageModel` that is also an embedding-model middleware for `wrapEmbeddingModel`.
 *
 * @example
 * ```ts
 * const middleware: NebulyMiddleware = nebulyMiddleware({ turn });
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware });
 * const embedder = wrapEmbeddingModel({ model: openai.embedding('text-embedding-3-small'), middleware });
 * ```
 */
export type NebulyMiddleware = LanguageModelMiddleware & EmbeddingModelMiddleware;

// What is read of the AI SDK's values, structurally (ai 6, `LanguageModelV3*`).
interface ModelInfo {
  readonly provider: string;
  readonly modelId: string;
}
interface Usage {
  readonly inputTokens?: { readonly total?: number | undefined } | undefined;
  readonly outputTokens?: { readonly total?: number | undefined } | undefined;
}
interface ContentPart {
  readonly type: string;
  readonly text?: string;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
}
interface GenerateResult {
  readonly content: readonly ContentPart[];
  readonly usage?: Usage | undefined;
  readonly response?: { readonly modelId?: string | undefined } | undefined;
}
interface EmbedResult {
  readonly usage?: { readonly tokens?: number | undefined } | undefined;
}
interface StreamPart {
  readonly type: string;
  readonly delta?: string;
  readonly toolName?: string | undefined;
  readonly input?: unknown;
  readonly modelId?: string | undefined;
  readonly usage?: Usage;
  readonly error?: unknown;
}

/** Token counts as a step takes them: only the ones the provider reported. */
function tokensOf(usage: Usage | undefined): Pick<Answer, 'inputTokens' | 'outputTokens'> {
  return { inputTokens: tokenCount(usage?.inputTokens?.total), outputTokens: tokenCount(usage?.outputTokens?.total) };
}

/** One call to a model being recorded: its place in the trace is kept from its start. */
abstract class Recording {
  protected readonly call: ObservedCall;
  protected readonly slot: StepSlot;

  constructor(call: ObservedCall) {
    this.call = call;
    this.slot = call.reserve();
  }

  fault(error: unknown, context: string): void {
    this.call.fault(error, context);
  }
}

/** One language-model call being recorded. */
class ModelCallRecording extends Recording {
  readonly #model: string;
  readonly #messages: StepMessage[];

  constructor(call: ObservedCall, model: string, messages: StepMessage[]) {
    super(call);
    this.#model = model;
    this.#messages = messages;
  }

  /** The call ended: its LLM step; the interaction (when it is the call's own) ends with its output. */
  #record(finished: Finished): void {
    if (finished.llm !== undefined) this.slot.llm(finished.llm);
    this.call.end({ output: finished.output });
  }

  /**
   * The model's answer, as the caller gets it. A call that fails before answering is a
   * step that says so (`[nebuly: call failed (<error>)]`), with what was asked.
   */
  async awaited<RESULT>(modelCall: () => PromiseLike<RESULT>): Promise<RESULT> {
    try {
      return await modelCall();
    } catch (error) {
      this.call.guard('recording a failed model call', () => this.#record(failedCall(this.#messages, this.#model, error)));
      throw error;
    }
  }

  generated(result: GenerateResult) {
    this.call.guard('recording a generated answer', () => {
      let text = '';
      const toolCalls: string[] = [];
      for (const part of result.content) {
        if (part.type === 'text') text += part.text ?? '';
        else if (part.type === 'tool-call') toolCalls.push(toolCallText(part.toolName, part.input));
      }
      const answer = { model: result.response?.modelId ?? this.#model, text, toolCalls, ...tokensOf(result.usage) };
      this.#record(llmFinished(this.#messages, answer, { kind: 'complete' }));
    });
  }

  /**
   * The caller's stream: each part passes through unchanged, as soon as it is read (no
   * read-ahead), while the answer is assembled; recorded when the stream ends, fails, or
   * is cancelled (then with what arrived, marked incomplete).
   */
  stream<PART>(source: ReadableStream<PART>): ReadableStream<PART> {
    const reader = source.getReader();
    let text = '';
    const toolCalls: string[] = [];
    let model = this.#model;
    let usage: Usage | undefined;
    let failure: Ending | undefined;
    let recorded = false;
    const record = (ending: Ending) => {
      if (recorded) return;
      recorded = true;
      this.call.guard('recording a streamed answer', () => {
        this.#record(llmFinished(this.#messages, { model, text, toolCalls, ...tokensOf(usage) }, ending));
      });
    };
    const observe = (part: StreamPart) => {
      switch (part.type) {
        case 'text-delta':
          text += part.delta ?? '';
          break;
        case 'tool-call':
          toolCalls.push(toolCallText(part.toolName, part.input));
          break;
        case 'response-metadata':
          model = part.modelId ?? model;
          break;
        case 'finish':
          usage = part.usage;
          break;
        case 'error':
          failure ??= { kind: 'failed', error: part.error };
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
            record({ kind: 'failed', error });
            throw error;
          }
          if (next.done) {
            record(failure ?? { kind: 'complete' });
            controller.close();
            return;
          }
          try {
            observe(next.value as StreamPart);
          } catch {
            // A part of an unexpected shape: the caller still gets it; the step records what was understood.
          }
          controller.enqueue(next.value);
        },
        cancel(reason) {
          record({ kind: 'aborted' });
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }
}

/** Starts recording a model call, unless a telemetry integration records it. Never throws. */
function startModelCall(target: NebulyTarget, prompt: unknown, toolChoice: unknown, model: ModelInfo) {
  try {
    const identity = { provider: model.provider, modelId: model.modelId, input: lastUserWords(prompt), toolChoice };
    if (isAwaitedByTelemetry(target, identity)) return undefined;
    const messages = stepMessages(Array.isArray(prompt) ? prompt : []);
    return new ModelCallRecording(beginCall(target, { input: lastUserText(messages) }), model.modelId, messages);
  } catch {
    // Only a bug gets here; there is no call to report it through yet. The model call goes on.
    return undefined;
  }
}

/**
 * A middleware that records every call of the model it wraps: one LLM step per model
 * call, streamed or not (`generateText`, `streamText`, `generateObject`, `streamObject`,
 * and each step of a multi-step run), with the prompt's messages (system first, tool
 * results as role `tool`), the answer's text followed by its tool calls as
 * `name(arguments)` lines, the model the provider reports and the token counts.
 * Given to `wrapEmbeddingModel`, it records each embedding call (`embed`, `embedMany`)
 * as an embedding step.
 *
 * Streams reach the caller part by part, unchanged; the step is recorded when the stream
 * ends, fails or is cancelled (then with what arrived, marked incomplete); a call that
 * fails is a step that says so. With a `{ conversation }` or standalone target each
 * model call is an interaction of its own;
 * use {@link nebulyTelemetry} to record a whole multi-step `generateText` / `streamText`
 * as one interaction with its tool calls. Used together, each model call is recorded
 * once, by the telemetry integration. Recording never gets in the way: a fault goes to
 * the client's `onError`, never into the caller's call.
 *
 * @throws TypeError when `target` is not a valid target.
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel, wrapEmbeddingModel, embed } from 'ai';
 * import { openai } from '@ai-sdk/openai';
 * import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
 *
 * const target = { nebuly, endUser: userHash, conversationId: chatId };
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: nebulyMiddleware(target) });
 * const { text } = await generateText({ model, prompt: 'Where is my order?' });
 *
 * const embedder = wrapEmbeddingModel({ model: openai.embedding('text-embedding-3-small'), middleware: nebulyMiddleware(target) });
 * await embed({ model: embedder, value: 'Where is my order?' });
 * ```
 */
export function nebulyMiddleware(target: NebulyTarget): NebulyMiddleware {
  const checked = checkTarget(target);
  return {
    specificationVersion: 'v3',

    async wrapGenerate({ doGenerate, params, model }) {
      const recording = startModelCall(checked, params.prompt, params.toolChoice, model);
      if (recording === undefined) return doGenerate();
      const result = await recording.awaited(doGenerate);
      recording.generated(result);
      return result;
    },

    async wrapStream({ doStream, params, model }) {
      const recording = startModelCall(checked, params.prompt, params.toolChoice, model);
      if (recording === undefined) return doStream();
      const result = await recording.awaited(doStream);
      try {
        return { ...result, stream: recording.stream(result.stream) };
      } catch (error) {
        recording.fault(error, 'observing a streamed model call');
        return result;
      }
    },

    async wrapEmbed({ doEmbed, params, model }) {
      const recording = startEmbedding(checked, model.modelId, params.values);
      let result: Awaited<ReturnType<typeof doEmbed>>;
      try {
        result = await doEmbed();
      } catch (error) {
        recording?.failed(error);
        throw error;
      }
      recording?.embedded(result);
      return result;
    },
  };
}

/**
 * An embedding call: one embedding step, as the provider integrations record one (the
 * texts, one a line, and the call's token count), in the place the call had when it
 * started. With a turn of its own (`{ conversation }` or standalone), the interaction's
 * input is that text and its output empty; a failed call records no step, and its
 * interaction's output says it failed.
 */
class EmbeddingRecording extends Recording {
  readonly #model: string;
  readonly #input: string;

  constructor(call: ObservedCall, model: string, input: string) {
    super(call);
    this.#model = model;
    this.#input = input;
  }

  embedded(result: EmbedResult | undefined): void {
    this.call.guard('recording an embedding call', () => {
      const tokens = tokenCount(result?.usage?.tokens);
      const input = this.#input;
      this.slot.embedding(tokens === undefined ? { model: this.#model, input } : { model: this.#model, input, input_tokens: tokens });
      this.call.end({ output: '' });
    });
  }

  failed(error: unknown): void {
    this.call.guard('recording a failed embedding call', () => {
      this.slot.cancel();
      this.call.end({ output: markedOutput('', { kind: 'call-failed', error }) });
    });
  }
}

/** Starts recording an embedding call. Never throws. */
function startEmbedding(target: NebulyTarget, model: string, values: readonly string[]): EmbeddingRecording | undefined {
  try {
    const input = values.join('\n');
    return new EmbeddingRecording(beginCall(target, { input }), model, input);
  } catch {
    // Only a bug gets here; there is no call to report it through yet. The embedding call goes on.
    return undefined;
  }
}
