/**
 * A `GoogleGenAI` client, observed: a Proxy that replaces `models.generateContent` and
 * `models.generateContentStream` and passes everything else through. A chat made by
 * `chats.create()` sends through the models it is given, so the chats are given the
 * observed ones: `sendMessage` and `sendMessageStream` are recorded with the contents
 * the chat sends (its history, then the new message).
 */
import { type AsyncCall, observeAsyncCall } from '../async-call.js';
import type { Finished } from '../model-call.js';
import type { ClientVersion } from '../provider/observe.js';
import type { CallRecording, StreamRecording } from '../provider/recording.js';
import { CollectedStream, COMPLETE, failedCall, llmFinished } from '../provider/step.js';
import { asString, field, fieldsOf, lastUserText, type StepMessage, stringField } from '../provider/text.js';
import type { ToolRun } from '../tool-runs.js';
import type { TargetChoice } from '../target.js';
import { GeminiCollector, modelName } from './answer.js';
import { geminiRequest } from './contents.js';

/** What one call records, from its params; `streams` says which method it is. One object a call: this runs on every call. */
class GeminiRecording implements CallRecording {
  readonly input: string | undefined;
  readonly toolRuns: readonly ToolRun[];
  readonly streams: boolean;
  readonly #messages: StepMessage[];
  readonly #model: string | undefined;

  constructor(params: unknown, streams: boolean) {
    const { messages, toolRuns } = geminiRequest(params);
    this.#messages = messages;
    this.#model = asString(fieldsOf(params)?.model);
    this.input = lastUserText(messages);
    this.toolRuns = toolRuns;
    this.streams = streams;
  }

  complete(response: unknown): Finished {
    const collector = new GeminiCollector(this.#model);
    collector.add(response);
    return llmFinished(this.#messages, collector.answer(), COMPLETE);
  }

  stream(): StreamRecording {
    return new CollectedStream(new GeminiCollector(this.#model), this.#messages);
  }

  failed(error: unknown): Finished {
    return failedCall(this.#messages, modelName(this.#model), error);
  }
}

/** A streamed call's result is the stream itself (an async generator). */
const itself = (result: unknown): unknown => result;

/**
 * The version of `@google/genai` a client is from, as the user agent it sends says it
 * (`google-genai-sdk/2.32.0 gl-node/v20.19.0`); `undefined` when it says none. Never throws.
 * @example
 * ```ts
 * genAIVersion(new GoogleGenAI({ apiKey })); // '2.32.0'
 * ```
 */
export function genAIVersion(client: object): string | undefined {
  try {
    const headers: unknown = (field(client, 'apiClient') as { getDefaultHeaders?: () => unknown } | undefined)?.getDefaultHeaders?.();
    const agent = stringField(headers, 'user-agent');
    return agent === undefined ? undefined : /google-genai-sdk\/(\d+\.\d+\S*)/.exec(agent)?.[1];
  } catch {
    return undefined;
  }
}

/** The observed methods of `models`, and whether each streams. */
const METHODS: ReadonlyMap<string, boolean> = new Map([
  ['generateContent', false],
  ['generateContentStream', true],
]);

/**
 * A Proxy over `object` that gives `replace(key, value)` for the keys it knows (made once
 * per value: `proxy.models === proxy.models`) and everything else as it is.
 */
function proxyOf<T extends object>(object: T, replace: (key: string, value: unknown) => unknown): T {
  const made = new Map<string, { source: unknown; child: unknown }>();
  return new Proxy(object, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof key !== 'string') return value;
      const cached = made.get(key);
      if (cached !== undefined && cached.source === value) return cached.child;
      const child = replace(key, value);
      if (child !== value) made.set(key, { source: value, child });
      return child;
    },
  });
}

/**
 * Returns `client` with its model calls observed into `target`.
 * @example
 * ```ts
 * const ai = observeGenAIClient(new GoogleGenAI({ apiKey }), checkTarget(target));
 * ```
 */
export function observeGenAIClient<Client extends object>(client: Client, target: TargetChoice): Client {
  const version: ClientVersion = { framework: '@google/genai', version: genAIVersion(client) };
  const observedModels = new WeakMap<object, object>();

  const models = (value: object): object => {
    let observed = observedModels.get(value);
    if (observed === undefined) {
      observed = proxyOf(value, (key, method) => {
        const streams = METHODS.get(key);
        if (streams === undefined || typeof method !== 'function') return method;
        const original = method as (...args: unknown[]) => unknown;
        return function observedCall(this: unknown, ...args: unknown[]) {
          const params = args[0];
          const call: AsyncCall = { streamOf: itself, signal: fieldsOf(fieldsOf(params)?.config)?.abortSignal as AbortSignal | undefined };
          return observeAsyncCall(target, version, () => new GeminiRecording(params, streams), () => original.apply(value, args), call);
        };
      });
      observedModels.set(value, observed);
    }
    return observed;
  };

  return proxyOf(client, (key, value) => {
    if (typeof value !== 'object' || value === null) {
      // The client's own methods, called on the client itself.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(client) : value;
    }
    if (key === 'models') return models(value);
    // `chats.create()` hands the chat `this.modelsModule`: read through this proxy, the observed models.
    if (key === 'chats') return proxyOf(value, (inner, held) => (inner === 'modelsModule' && typeof held === 'object' && held !== null ? models(held) : held));
    return value;
  });
}
