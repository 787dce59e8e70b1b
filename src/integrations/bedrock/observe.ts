/**
 * A `BedrockRuntimeClient` (or the aggregated `BedrockRuntime`), observed: a Proxy whose
 * `send` records the `ConverseCommand` and `ConverseStreamCommand` calls and passes every
 * other command, and everything else, through.
 */
import { type AsyncCall, observeAsyncCall } from '../async-call.js';
import type { ClientVersion } from '../provider/observe.js';
import type { CallRecording } from '../provider/recording.js';
import { failedCall, llmFinished } from '../provider/step.js';
import { field, lastUserText, stringField } from '../provider/text.js';
import type { TargetChoice } from '../target.js';
import { ConverseEventCollector, converseAnswer } from './answer.js';
import { converseRequest } from './messages.js';

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
    const schema = field(command, 'schema');
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

/** What one call records, from its command's input. */
function converseRecording(input: unknown, streams: boolean): CallRecording {
  const { messages, toolRuns } = converseRequest(input);
  const modelId = stringField(input, 'modelId');
  return {
    input: lastUserText(messages),
    toolRuns,
    streams,
    complete: (output) => llmFinished(messages, converseAnswer(output, modelId), { kind: 'complete' }),
    stream: () => {
      const collector = new ConverseEventCollector(modelId);
      return { add: (event) => collector.add(event), finish: (ending) => llmFinished(messages, collector.answer(), ending) };
    },
    failed: (error) => failedCall(messages, modelId, error),
  };
}

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
      const value: unknown = Reflect.get(object, key, object);
      if (key !== 'send' || typeof value !== 'function') return value;
      if (made?.source === value) return made.observed;
      const send = value as (...args: unknown[]) => unknown;
      const observed = function observedSend(this: unknown, ...args: unknown[]) {
        const [command, options, callback] = args;
        const streams = OPERATIONS.get(operationOf(command) ?? '');
        // A callback (the SDK's older style) gets the result itself: not observed.
        if (streams === undefined || typeof options === 'function' || typeof callback === 'function') return send.apply(object, args);
        const call: AsyncCall = { streamOf: (output) => field(output, 'stream'), signal: field(options, 'abortSignal') as AbortSignal | undefined };
        const input = field(command, 'input');
        return observeAsyncCall(target, version, () => converseRecording(input, streams), () => send.apply(object, args), call);
      };
      made = { source: value, observed };
      return observed;
    },
  });
}
