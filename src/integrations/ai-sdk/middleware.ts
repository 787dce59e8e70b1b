import type { EmbeddingModelMiddleware, LanguageModelMiddleware } from 'ai';
import { markActiveSpan } from '../call-marks.js';
import { checkTestedVersion } from '../diagnostics.js';
import { ModelCall } from '../model-call.js';
import { failedCall, llmFinished } from '../provider/step.js';
import { lastUserText, markedOutput, tokenCount, type StepMessage } from '../provider/text.js';
import { beginCall, checkTarget, resolveTarget, type NebulyTarget } from '../target.js';
import { isAwaitedByTelemetry } from './handoff.js';
import { lastUserWords, promptRequest } from './messages.js';
import { generatedAnswer, observedParts } from './model-answer.js';

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

/** What identifies the model called. */
interface ModelInfo {
  readonly provider: string;
  readonly modelId: string;
}

/** One language-model call being recorded: the model asked for, and the prompt as recorded. */
interface ModelCallRecording {
  readonly modelCall: ModelCall;
  readonly model: string;
  readonly messages: StepMessage[];
}

/** What a model call's parameters carry beside its prompt: ai adds `ai/<version>` to the user agent of its headers. */
interface CallHeaders {
  readonly headers?: Record<string, string | undefined> | undefined;
}

/** The version of ai that made a call (its user agent's `ai/6.0.326`), else `undefined`. */
function aiVersion(params: CallHeaders): string | undefined {
  const userAgent = params.headers?.['user-agent'];
  return userAgent === undefined ? undefined : /(?:^|\s)ai\/(\d+\.\d+\S*)/.exec(userAgent)?.[1];
}

/** Starts recording a model call, unless a telemetry integration records it. Never throws. */
function startModelCall(
  given: NebulyTarget | undefined,
  params: CallHeaders & { prompt: unknown; toolChoice?: unknown },
  model: ModelInfo,
  streams: boolean,
) {
  try {
    const target = resolveTarget(given);
    if (target === undefined) return undefined;
    const { prompt } = params;
    const identity = { provider: model.provider, modelId: model.modelId, input: lastUserWords(prompt), toolChoice: params.toolChoice };
    if (isAwaitedByTelemetry(target, identity)) return undefined;
    const { messages, toolRuns } = promptRequest(Array.isArray(prompt) ? prompt : []);
    // A stream's text reaches the user as it comes (`textStream`), step after step.
    const modelCall = new ModelCall(beginCall(target, { input: lastUserText(messages), toolRuns }), { joinsOutput: streams });
    checkTestedVersion(modelCall.call.client, 'ai', aiVersion(params));
    // The AI SDK's model-call span holds this call: a NebulySpanProcessor leaves it to this middleware.
    markActiveSpan();
    return { modelCall, model: model.modelId, messages } satisfies ModelCallRecording;
  } catch {
    // Only a bug gets here; there is no call to report it through yet. The model call goes on.
    return undefined;
  }
}

/**
 * The model's answer, as the caller gets it. A call that fails before answering is a
 * step that says so (`[nebuly: call failed (<error>)]`), with what was asked.
 */
async function awaited<RESULT>(recording: ModelCallRecording, modelCall: () => PromiseLike<RESULT>): Promise<RESULT> {
  try {
    return await modelCall();
  } catch (error) {
    recording.modelCall.finish(() => failedCall(recording.messages, recording.model, error));
    throw error;
  }
}

/**
 * A middleware that records every call of the model it wraps: one LLM step per model
 * call, streamed or not (`generateText`, `streamText`, `generateObject`, `streamObject`,
 * and each step of a multi-step run), with the prompt's messages (system first, each tool
 * result a `tool` message), the answer's text followed by its tool calls as
 * `name(arguments)` lines, the model the provider reports and the token counts.
 * Given to `wrapEmbeddingModel`, it records each embedding call (`embed`, `embedMany`)
 * as an embedding step.
 *
 * One interaction per user message: a model call whose prompt ends with tool results
 * continues the interaction that asked for them, and those results become retrieval
 * steps (`source`: the tool's name, `input`: its arguments, `outputs`: its result)
 * between the two LLM steps. Streams reach the caller part by part, unchanged; the step
 * is recorded when the stream ends, fails, or is stopped (then with what arrived, marked
 * incomplete); a call that fails is a step that says so. With {@link nebulyTelemetry} on
 * the same calls, each model call is recorded once, by the telemetry integration.
 * Without a target, each call records into the ambient target of
 * `nebuly.withConversation()`. Recording never gets in the way: a fault goes to the
 * client's `onError`, never into the caller's call.
 *
 * @throws TypeError when `target` is given and is not a valid target.
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
export function nebulyMiddleware(target?: NebulyTarget): NebulyMiddleware {
  const checked = checkTarget(target);
  return {
    specificationVersion: 'v3',

    async wrapGenerate({ doGenerate, params, model }) {
      const recording = startModelCall(checked, params, model, false);
      if (recording === undefined) return doGenerate();
      const result = await awaited(recording, doGenerate);
      recording.modelCall.finish(() => llmFinished(recording.messages, generatedAnswer(result, recording.model), { kind: 'complete' }));
      return result;
    },

    async wrapStream({ doStream, params, model }) {
      const recording = startModelCall(checked, params, model, true);
      if (recording === undefined) return doStream();
      const result = await awaited(recording, doStream);
      recording.modelCall.streaming();
      try {
        const stream = observedParts(result.stream, recording.model, params.abortSignal, (answer, ending) =>
          recording.modelCall.finish(() => llmFinished(recording.messages, answer, ending)),
        );
        return { ...result, stream };
      } catch (error) {
        recording.modelCall.call.fault(error, 'observing a streamed model call');
        return result;
      }
    },

    async wrapEmbed({ doEmbed, params, model }) {
      const recording = startEmbedding(checked, model.modelId, params);
      let result: Awaited<ReturnType<typeof doEmbed>>;
      try {
        result = await doEmbed();
      } catch (error) {
        // A failed embedding call embedded nothing: no step, the interaction's output says why.
        recording?.modelCall.finish(() => ({ output: markedOutput('', { kind: 'call-failed', error }) }));
        throw error;
      }
      recording?.modelCall.finish(() => {
        const tokens = tokenCount(result.usage?.tokens);
        const { model: name, input } = recording;
        return { embedding: tokens === undefined ? { model: name, input } : { model: name, input, input_tokens: tokens }, output: '' };
      });
      return result;
    },
  };
}

/**
 * Starts recording an embedding call: one embedding step (the texts, one a line, and the
 * call's token count) in the place the call had when it started; while an interaction
 * awaits tools, a step of that one, else an interaction of its own whose input is the
 * text. Never throws.
 */
function startEmbedding(given: NebulyTarget | undefined, model: string, params: CallHeaders & { values: readonly string[] }) {
  try {
    const input = params.values.join('\n');
    const modelCall = new ModelCall(beginCall(given, { input, aside: true }));
    checkTestedVersion(modelCall.call.client, 'ai', aiVersion(params));
    return { modelCall, model, input };
  } catch {
    // Only a bug gets here; there is no call to report it through yet. The embedding call goes on.
    return undefined;
  }
}
