/**
 * How `nebulyMiddleware` and `nebulyTelemetry`, used together, record each model call once.
 *
 * The telemetry integration records the model calls of the `generateText` / `streamText`
 * calls it observes (it also sees their tool executions, and places them in order); the
 * middleware stands down for those model calls. ai 6 gives no call id; what ties a model
 * call to its telemetry step is
 *
 * - by identity, for a call with tools (or `toolChoice: 'none'`): its `toolChoice` is the
 *   very object of the step the telemetry saw start (ai builds a new one for every step),
 *   so such a call is the telemetry's exactly when that object is awaited;
 * - only for a call without tools, where ai passes nothing to match, by likeness: a
 *   tool-less step of a telemetry-observed call with the same destination (turn,
 *   conversation, or client and end user: the ambient target of `withConversation` keeps
 *   users apart), the same model and the same words in the last user message is waiting
 *   for its model call.
 *
 * A step waits from its `onStepStart` to its `onStepFinish`; a generation that throws
 * never finishes its step, so its wait ends when its integration sees its next call.
 */
import type { NebulyTarget } from '../target.js';

/**
 * A telemetry step waiting for its model call.
 *
 * @example
 * ```ts
 * const awaited = awaitModelCall(target, identity); // onStepStart
 * awaited.settle();                                 // onStepFinish
 * ```
 */
export interface AwaitedModelCall {
  /** The step finished (or was given up): model calls no longer match it. */
  settle(): void;
}

/**
 * What identifies a model call, from either side.
 *
 * @example
 * ```ts
 * const identity: ModelCallIdentity = { provider: 'openai.chat', modelId: 'gpt-4o', input: 'Hi', toolChoice: { type: 'auto' } };
 * ```
 */
export interface ModelCallIdentity {
  readonly provider: string;
  readonly modelId: string;
  /** The words of the last user message (its text parts). */
  readonly input: string | undefined;
  /** The step's `toolChoice` as given to the model: an object when the call has tools. */
  readonly toolChoice: unknown;
}

const awaitedToolChoices = new WeakSet<object>();
const awaitedByDestination = new WeakMap<object, Map<string, number>>();

/** The object a target records into, and what tells its users apart. */
function destinationOf(target: NebulyTarget): { holder: object; scope: string } {
  if ('turn' in target) return { holder: target.turn, scope: '' };
  if ('conversation' in target) return { holder: target.conversation, scope: '' };
  return { holder: target.nebuly, scope: `${target.endUser}\u0000${target.conversationId ?? ''}` };
}

function keyOf(scope: string, identity: ModelCallIdentity): string {
  return [scope, identity.provider, identity.modelId, identity.input ?? ''].join('\u0000');
}

/**
 * The telemetry side: a step started and its model call is coming.
 *
 * @example
 * ```ts
 * const awaited = awaitModelCall(target, { provider, modelId, input: lastUserText(messages), toolChoice: event.toolChoice });
 * ```
 */
export function awaitModelCall(target: NebulyTarget, identity: ModelCallIdentity): AwaitedModelCall {
  const linked = linkOf(identity);
  if (linked !== undefined) {
    awaitedToolChoices.add(linked);
    return { settle: () => void awaitedToolChoices.delete(linked) };
  }
  const { holder, scope } = destinationOf(target);
  const key = keyOf(scope, identity);
  let counts = awaitedByDestination.get(holder);
  if (counts === undefined) {
    counts = new Map();
    awaitedByDestination.set(holder, counts);
  }
  counts.set(key, (counts.get(key) ?? 0) + 1);
  const waiting = counts;
  let settled = false;
  return {
    settle() {
      if (settled) return;
      settled = true;
      const left = (waiting.get(key) ?? 1) - 1;
      if (left > 0) waiting.set(key, left);
      else waiting.delete(key);
    },
  };
}

/** The object that identifies a step with tools, if the step has one. */
function linkOf(identity: ModelCallIdentity): object | undefined {
  const { toolChoice } = identity;
  return typeof toolChoice === 'object' && toolChoice !== null ? toolChoice : undefined;
}

/**
 * The middleware side: whether a telemetry integration records this model call.
 *
 * @example
 * ```ts
 * if (isAwaitedByTelemetry(target, { provider: model.provider, modelId: model.modelId, input, toolChoice: params.toolChoice })) {
 *   return doGenerate(); // recorded by the telemetry integration
 * }
 * ```
 */
export function isAwaitedByTelemetry(target: NebulyTarget, identity: ModelCallIdentity): boolean {
  const linked = linkOf(identity);
  if (linked !== undefined && awaitedToolChoices.has(linked)) return true;
  // ai 7's telemetry events carry no object to match by: the model and words then.
  const { holder, scope } = destinationOf(target);
  return (awaitedByDestination.get(holder)?.get(keyOf(scope, identity)) ?? 0) > 0;
}
