/**
 * A `BedrockRuntimeClient` (or the aggregated `BedrockRuntime`), observed: a Proxy whose
 * `send` records the `ConverseCommand` and `ConverseStreamCommand` calls and passes every
 * other command, and everything else, through.
 */
import { type AsyncCall, observeAsyncCall } from '../async-call.js';
import type { Finished } from '../model-call.js';
import type { ClientVersion } from '../provider/observe.js';
import type { CallRecording, StreamRecording } from '../provider/recording.js';
import { CollectedStream, COMPLETE, failedCall, llmFinished } from '../provider/step.js';
import { asString, fieldsOf, lastUserText, type StepMessage } from '../provider/text.js';
import type { TargetChoice } from '../target.js';
import type { ToolRun } from '../tool-runs.js';
import { ConverseEventCollector, converseAnswer } from './answer.js';
import { converseRequest } from './messages.js';

// Read by name, not with `field()`: this runs on every call (see `fieldsOf`).

/**
 * The operation a command is of: the name its schema gives (`Converse`), else its class's
 * (`ConverseCommand`, for versions without schemas), or `undefined`. Never throws.
 * @example
 * ```ts
 * operationOf(new ConverseStreamCommand(input)); // 'ConverseStream'
 * ```
 */
export function operationOf(command: unknown): string | undefined {
  try {
    const schema = fieldsOf(command)?.schema;
    if (Array.isArray(schema) && typeof schema[2] === 'string') return schema[2];
    const name = (command as { constructor?: { name?: unknown } } | undefined)?.constructor?.name;
    return typeof name === 'string' && name.endsWith('Command') ? name.slice(0, -'Command'.length) : undefined;
  } catch {
    return undefined;
  }
}

/** The observed operations, and whether each streams. */
const OPERATIONS: ReadonlyMap<string, boolean> = new Map([
  ['Converse', false],
  ['ConverseStream', true],
]);

/** What one call records, from its command's input. One object a call: this runs on every call. */
class ConverseRecording implements CallRecording {
  readonly input: string | undefined;
  readonly toolRuns: readonly ToolRun[];
  readonly streams: boolean;
  readonly #messages: StepMessage[];
  readonly #modelId: string | undefined;

  constructor(input: unknown, streams: boolean) {
    const { messages, toolRuns } = converseRequest(input);
    this.#messages = messages;
    this.#modelId = asString(fieldsOf(input)?.modelId);
    this.input = lastUserText(messages);
    this.toolRuns = toolRuns;
    this.streams = streams;
  }

  complete(output: unknown): Finished {
    return llmFinished(this.#messages, converseAnswer(output, this.#modelId), COMPLETE);
  }

  stream(): StreamRecording {
    return new CollectedStream(new ConverseEventCollector(this.#modelId), this.#messages);
  }

  failed(error: unknown): Finished {
    return failedCall(this.#messages, this.#modelId, error);
  }
}

/** A streamed call's events: the output's `stream`. */
const streamOf = (output: unknown): unknown => fieldsOf(output)?.stream;

/**
 * Returns `client` with its Converse calls observed into `target`.
 * @example
 * ```ts
 * const bedrock = observeBedrockClient(new BedrockRuntimeClient({ region }), checkTarget(target));
 * ```
 */
export function observeBedrockClient<Client extends object>(client: Client, target: TargetChoice): Client {
  // The AWS SDK tells its version only asynchronously (its user agent provider): none is checked.
  const version: ClientVersion = { framework: '@aws-sdk/client-bedrock-runtime', version: undefined };
  let made: { source: unknown; observed: unknown } | undefined;
  return new Proxy(client, {
    get(object, key) {
      if (key !== 'send') return Reflect.get(object, key, object);
      // Read by name: this runs on every call (see `fieldsOf`).
      const value = (object as { send?: unknown }).send;
      if (typeof value !== 'function') return value;
      if (made?.source === value) return made.observed;
      const send = value as (...args: unknown[]) => unknown;
      const observed = function observedSend(this: unknown, ...args: unknown[]) {
        const command = args[0];
        const options = args[1];
        const streams = OPERATIONS.get(operationOf(command) ?? '');
        // A callback (the SDK's older style) gets the result itself: not observed.
        if (streams === undefined || typeof options === 'function' || typeof args[2] === 'function') return send.apply(object, args);
        const call: AsyncCall = { streamOf, signal: fieldsOf(options)?.abortSignal as AbortSignal | undefined };
        const input = fieldsOf(command)?.input;
        return observeAsyncCall(target, version, () => new ConverseRecording(input, streams), () => send.apply(object, args), call);
      };
      made = { source: value, observed };
      return observed;
    },
  });
}
