/**
 * Where what an integration observes goes: the target it was made with, else the ambient
 * one (`nebuly.withConversation`). The one implementation behind every integration entry
 * (`nebuly-client/openai`, `/anthropic`, `/ai-sdk`, `/langchain`). The main entry never
 * imports this file.
 */
import { NebulyClient } from '../client.js';
import { ambientContext, checkConversationTarget, type ConversationTarget } from '../recorder/conversation-target.js';
import { beginInteractionCall, type CallStart, lastInteractionId } from './interactions.js';
import type { NebulyTarget } from './nebuly-target.js';
import { NO_CALL, type ObservedCall } from './observed-call.js';

export type { NebulyTarget } from './nebuly-target.js';
export type { CallStart } from './interactions.js';
export type { CallResult, ObservedCall } from './observed-call.js';
export type { StepSlot } from './turn-access.js';

/**
 * What an integration was made with: a checked target, or `undefined` to record into the
 * ambient target of each call.
 * @example
 * ```ts
 * const target: TargetChoice = checkTarget(given);
 * ```
 */
export type TargetChoice = NebulyTarget | undefined;

/**
 * Checks a target once, when an integration is created, so that a mistake shows where it
 * is made rather than as calls that record nothing. `undefined` is the ambient target.
 *
 * @throws TypeError naming what is wrong.
 * @example
 * ```ts
 * const target = checkTarget(userTarget); // in an integration's factory
 * ```
 */
export function checkTarget(target: unknown): TargetChoice {
  if (target === undefined) return undefined;
  checkConversationTarget(target, (value) => value instanceof NebulyClient, true);
  return target as NebulyTarget;
}

/** The ambient targets as integrations use them, the client filled in: made once per target. */
const completed = new WeakMap<object, NebulyTarget>();

function ambientTarget(): NebulyTarget | undefined {
  const ambient = ambientContext().get();
  if (ambient === undefined) return undefined;
  const target: ConversationTarget = ambient.target;
  if ('turn' in target || 'conversation' in target || target.nebuly !== undefined) return target as NebulyTarget;
  let known = completed.get(target);
  if (known === undefined) {
    known = { ...target, nebuly: ambient.nebuly as NebulyClient };
    completed.set(target, known);
  }
  return known;
}

/**
 * @internal The target a call records into: the integration's own, else the ambient one
 * (`undefined` when there is none: the call is not recorded).
 * @example
 * ```ts
 * const target = resolveTarget(this.#target);
 * ```
 */
export function resolveTarget(choice: TargetChoice): NebulyTarget | undefined {
  return choice ?? ambientTarget();
}

/**
 * @internal Starts recording one observed call. `start.input` is the interaction's input
 * when the call opens one (the last user message's text); `start.toolRuns`, the tool
 * results its messages end with: the call then continues the interaction that asked for
 * them (see interactions.ts). Never throws; without a target (none given, none ambient)
 * the call records nothing.
 * @example
 * ```ts
 * const call = beginCall(checkTarget(target), { input: lastUserText });
 * call.llm(mapStep(result));
 * call.end({ output: answerText });
 * ```
 */
export function beginCall(choice: TargetChoice, start: CallStart): ObservedCall {
  const target = resolveTarget(choice);
  if (target === undefined) return NO_CALL;
  // The client, for diagnostics: the target's, else the one whose withConversation set it.
  const ambientClient = choice === undefined ? (ambientContext().get()?.nebuly as NebulyClient | undefined) : undefined;
  const client = 'nebuly' in target ? target.nebuly : ambientClient;
  return beginInteractionCall(target, start, client);
}

/**
 * The id of the interaction being recorded (or recorded last) through the ambient target
 * of `nebuly.withConversation()`, or through `target`: keep it with the message you show,
 * to send feedback on it later. `undefined` before any call was recorded there.
 *
 * @example
 * ```ts
 * const answer = await nebuly.withConversation({ endUser: userHash, conversationId: chatId }, async () => {
 *   const result = await run(agent, question);
 *   await saveMessage({ text: result.finalOutput, interactionId: currentInteractionId() });
 *   return result.finalOutput;
 * });
 * ```
 */
export function currentInteractionId(target?: NebulyTarget): string | undefined {
  const found = target ?? ambientTarget();
  return found === undefined ? undefined : lastInteractionId(found);
}
