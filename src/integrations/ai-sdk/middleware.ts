import type { EmbeddingModelMiddleware, LanguageModelMiddleware } from 'ai';
import { beginCall, checkTarget, type NebulyTarget, type ObservedCall, type StepSlot } from '../target.js';
import { incompleteText } from '../readable.js';
import { isAwaitedByTelemetry } from './handoff.js';
import { answerText, lastUserText, stepMessages, type SeenToolCall, type StepMessage } from './messages.js';

/**
 * What {@link nebulyMiddleware} returns: a language-model middleware for
 * `wrapLanguageModel` that is also an embedding-model middleware for `wrapEmbeddingModel`.
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
  readonly toolName?: string;
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
  readonly toolName?: string;
  readonly input?: unknown;
  readonly modelId?: string | undefined;
  readonly usage?: Usage;
  readonly error?: unknown;
}

/** Token counts as a step takes them: only the ones the provider reported. */
function tokenFields(usage: Usage | undefined): { input_tokens?: number; output_tokens?: number } {
  const tokens: { input_tokens?: number; output_tokens?: number } = {};
  const input = usage?.inputTokens?.total;
  const output = usage?.outputTokens?.total;
  if (typeof input === 'number') tokens.input_tokens = input;
  if (typeof output === 'number') tokens.output_tokens = output;
  return tokens;
}

/** One model call being recorded: its place in the trace is kept from its start. */
class ModelCallRecording {
  readonly #call: ObservedCall;
  readonly #slot: StepSlot;
  readonly #model: string;
  readonly #messages: StepMessage[];

  constructor(call: ObservedCall, model: string, messages: StepMessage[]) {
    this.#call = call;
    this.#slot = call.reserve();
    this.#model = model;
    this.#messages = messages;
  }

  /**
   * The call answered: one LLM step; the interaction (when it is the call's own) ends with
   * the answer. `incomplete` says why a stream stopped before its end: what arrived is
   * then recorded, marked.
   */
  answered(model: string | undefined, text: string, toolCalls: readonly SeenToolCall[], usage: Usage | undefined, incomplete?: string) {
    const answer = answerText(text, toolCalls);
    const output = incomplete === undefined ? answer : incompleteText(answer, incomplete);
    this.#slot.llm({ model: model ?? this.#model, messages: this.#messages, output, ...tokenFields(usage) });
    this.#call.end({ output });
  }

  /**
   * The model's answer, as the caller gets it. When the call fails before answering: no
   * step, and its interaction ends without an answer.
   */
  async awaited<RESULT>(modelCall: () => PromiseLike<RESULT>): Promise<RESULT> {
    try {
      return await modelCall();
    } catch (error) {
      this.#slot.cancel();
      this.#call.end({ output: '' });
      throw error;
    }
  }

  fault(error: unknown, context: string) {
    this.#call.fault(error, context);
  }

  generated(result: GenerateResult) {
    try {
      let text = '';
      const toolCalls: SeenToolCall[] = [];
      for (const part of result.content) {
        if (part.type === 'text') text += part.text ?? '';
        else if (part.type === 'tool-call') toolCalls.push({ toolName: String(part.toolName), input: part.input });
      }
      this.answered(result.response?.modelId, text, toolCalls, result.usage);
    } catch (error) {
      this.fault(error, 'recording a generateText model call');
    }
  }

  /**
   * The caller's stream: each part passes through unchanged, as soon as it is read (no
   * read-ahead), while the answer is assembled; recorded when the stream ends, fails, or
   * is cancelled.
   */
  stream<PART>(source: ReadableStream<PART>): ReadableStream<PART> {
    const reader = source.getReader();
    let text = '';
    const toolCalls: SeenToolCall[] = [];
    let model: string | undefined;
    let usage: Usage | undefined;
    let failure: unknown;
    let recorded = false;
    const record = (why: string | undefined) => {
      if (recorded) return;
      recorded = true;
      try {
        this.answered(model, text, toolCalls, usage, why);
      } catch (error) {
        this.fault(error, 'recording a streamed model call');
      }
    };
    const observe = (part: StreamPart) => {
      switch (part.type) {
        case 'text-delta':
          text += part.delta ?? '';
          break;
        case 'tool-call':
          toolCalls.push({ toolName: String(part.toolName), input: part.input });
          break;
        case 'response-metadata':
          model = part.modelId ?? model;
          break;
        case 'finish':
          usage = part.usage;
          break;
        case 'error':
          failure ??= part.error;
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
            record(`the stream failed: ${errorMessage(error)}`);
            throw error;
          }
          if (next.done) {
            record(failure === undefined ? undefined : `the stream failed: ${errorMessage(failure)}`);
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
          record('the stream was cancelled');
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Starts recording a model call, unless a telemetry integration records it. Never throws. */
function startModelCall(target: NebulyTarget, prompt: unknown, toolChoice: unknown, model: ModelInfo) {
  try {
    const messages = stepMessages(Array.isArray(prompt) ? prompt : []);
    const input = lastUserText(messages);
    if (isAwaitedByTelemetry(target, { provider: model.provider, modelId: model.modelId, input, toolChoice })) {
      return undefined;
    }
    return new ModelCallRecording(beginCall(target, { input }), model.modelId, messages);
  } catch {
    // Only a bug gets here; there is no call to report it through yet. The model call goes on.
    return undefined;
  }
}

/**
 * A middleware that records every call of the model it wraps: one LLM step per model
 * call, streamed or not (`generateText`, `streamText`, `generateObject`, `streamObject`,
 * and each step of a multi-step run), with the prompt's messages (system first, tool
 * results as role `tool`), the answer's text (a tool-call-only answer as
 * `name(arguments)` lines), the model the provider reports and the token counts.
 * Given to `wrapEmbeddingModel`, it records each embedding call (`embed`, `embedMany`)
 * as embedding steps, one per embedded text.
 *
 * Streams reach the caller part by part, unchanged; the step is recorded when the stream
 * ends, fails or is cancelled (then with what arrived, marked incomplete). With a
 * `{ conversation }` or standalone target each model call is an interaction of its own;
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
      const result = await doEmbed();
      recordEmbedding(checked, model.modelId, params.values, result);
      return result;
    },
  };
}

/**
 * An embedding call: one embedding step per text. The provider counts the call's tokens
 * as a whole, so `input_tokens` is set only when one text was embedded. With a turn of
 * its own (`{ conversation }` or standalone), the interaction's input is the texts, one
 * a line, and its output empty.
 */
function recordEmbedding(target: NebulyTarget, model: string, values: readonly string[], result: EmbedResult | undefined) {
  let call: ObservedCall | undefined;
  try {
    const tokens = result?.usage?.tokens;
    call = beginCall(target, { input: values.join('\n') });
    for (const value of values) {
      call.embedding(values.length === 1 && tokens !== undefined ? { model, input: value, input_tokens: tokens } : { model, input: value });
    }
    call.end({ output: '' });
  } catch (error) {
    call?.fault(error, 'recording an embedding call');
  }
}
