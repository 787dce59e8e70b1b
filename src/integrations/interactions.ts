/**
 * What an interaction is, whatever the integration: one user message and the answer
 * shown to that user. A model call whose messages end with tool results continues the
 * interaction whose answer asked for those tools; only a new user message starts the next.
 * The tool runs found in a continuing call's messages become retrieval steps, between
 * the LLM step that asked for them and the next.
 */
import type { NebulyClient } from '../client.js';
import type { Conversation } from '../recorder/conversation.js';
import type { ConversationOutcome } from '../recorder/outcome.js';
import type { Turn } from '../recorder/turn.js';
import type { NebulyTarget } from './nebuly-target.js';
import { type CallResult, NO_CALL, type ObservedCall, TurnCall } from './observed-call.js';
import { sessionConversation, takeSession } from './sessions.js';
import type { ToolRun } from './tool-runs.js';
import { turnInternals } from './turn-access.js';

/** An interaction an integration opened, while it is open. */
interface OpenInteraction {
  readonly turn: Turn;
  /** What ends with it: a conversation of its own (a standalone target without id). */
  readonly after: (() => void) | undefined;
  /** The tool calls its last answer asked for, by id. */
  awaited: readonly string[];
  /** Its output so far: the last answer's text (all of them, for calls that join their output). */
  output: string;
}

/** Where interactions of a target are opened: a conversation, or the target itself. */
interface Destination {
  /** Interactions whose answer asked for tools, waiting for the call with their results. */
  pending: OpenInteraction[];
}

const destinations = new WeakMap<object, Destination>();
/** The last interaction an integration recorded into, by target: for `currentInteractionId`. */
const lastInteraction = new WeakMap<object, Turn>();

function destinationOf(key: object): Destination {
  let destination = destinations.get(key);
  if (destination === undefined) {
    destination = { pending: [] };
    destinations.set(key, destination);
  }
  return destination;
}

const NONE_AWAITED: readonly string[] = [];

/**
 * The conversation a target's interactions go to: its own, or its session's; `undefined`
 * for a standalone target without id, whose interactions are a conversation each.
 */
function conversationOf(target: Exclude<NebulyTarget, { turn: Turn }>): Conversation | undefined {
  if ('conversation' in target) return target.conversation;
  return target.conversationId === undefined ? undefined : sessionConversation(target, target.conversationId);
}

/** A standalone target: with no `conversationId`, its interactions are a conversation each. */
type Standalone = Extract<NebulyTarget, { nebuly: NebulyClient }>;

/** Opens an interaction in `conversation`, else (a standalone target without id) in a conversation of its own, ended with it. */
function open(target: Exclude<NebulyTarget, { turn: Turn }>, conversation: Conversation | undefined, input: string): OpenInteraction {
  if (conversation !== undefined) return { turn: conversation.interaction({ input }), after: undefined, awaited: NONE_AWAITED, output: '' };
  const { nebuly, endUser, tags } = target as Standalone;
  const own = nebuly.startConversation({ end_user: endUser, tags });
  return { turn: own.interaction({ input }), after: () => void own.end(), awaited: NONE_AWAITED, output: '' };
}

function close(interaction: OpenInteraction, output: string): void {
  interaction.turn.end({ output });
  interaction.after?.();
}

/** The interactions awaiting tools end, with the text they had: a new user message came. */
function settle(destination: Destination): void {
  if (destination.pending.length === 0) return;
  for (const interaction of destination.pending.splice(0)) close(interaction, interaction.output);
}

/** The interaction a call with these tool results continues: by the tool calls' ids. */
function takePending(destination: Destination, runs: readonly ToolRun[]): OpenInteraction | undefined {
  const pending = destination.pending.filter((interaction) => !turnInternals(interaction.turn).closed());
  destination.pending = pending;
  const ids = new Set(runs.map((run) => run.id).filter((id) => id !== undefined));
  let index = pending.findIndex((interaction) => interaction.awaited.some((id) => ids.has(id)));
  // Without ids on one side (a framework that gives none), the latest one.
  if (index < 0 && (ids.size === 0 || pending.at(-1)?.awaited.length === 0)) index = pending.length - 1;
  return index < 0 ? undefined : pending.splice(index, 1)[0];
}

function callIn(destination: Destination, interaction: OpenInteraction, client: NebulyClient | undefined): ObservedCall {
  const internals = turnInternals(interaction.turn);
  const finish = (result: CallResult) => {
    if (result.input !== undefined) internals.setInput(result.input);
    const output = result.joinsOutput === true ? interaction.output + (result.output ?? '') : (result.output ?? '');
    if (result.awaitsTools !== undefined && !internals.closed()) {
      interaction.awaited = result.awaitsTools;
      interaction.output = output;
      destination.pending.push(interaction);
      return;
    }
    close(interaction, output);
  };
  return new TurnCall(interaction.turn, finish, client, internals);
}

/** The same text, or the same JSON written with other spacing (tool arguments as the app and the model each wrote them). */
function sameText(recorded: unknown, text: string): boolean {
  if (recorded === text) return true;
  if (typeof recorded !== 'string') return false;
  try {
    return JSON.stringify(JSON.parse(recorded)) === JSON.stringify(JSON.parse(text));
  } catch {
    return false;
  }
}

/**
 * Whether the turn already holds this tool run since its last model call: the app recorded
 * it itself (`turn.retrieval()`). Only since then: the same tool run twice, for two model
 * calls, is two runs.
 */
function recordedAlready(steps: readonly Readonly<Record<string, unknown>>[], run: ToolRun): boolean {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index]!;
    if (step['source'] === undefined) return false;
    const outputs = step['outputs'];
    if (step['source'] === run.source && sameText(step['input'], run.input) && Array.isArray(outputs) && outputs.length === 1 && sameText(outputs[0], run.output)) {
      return true;
    }
  }
  return false;
}

/** The tool runs a call's messages end with, as retrieval steps, except those the app recorded itself. */
function recordRuns(turn: Turn, call: ObservedCall, runs: readonly ToolRun[]): void {
  if (runs.length === 0) return;
  const steps = turnInternals(turn).steps();
  for (const run of runs) {
    if (recordedAlready(steps, run)) continue;
    call.retrieval({ source: run.source, input: run.input, outputs: [run.output] });
  }
}

/**
 * @internal How an observed call starts.
 * @example
 * ```ts
 * const start: CallStart = { input: 'Where is order 7?', toolRuns: [] };
 * ```
 */
export interface CallStart {
  /** The last user message's text: the input of an interaction the call opens. */
  input?: string | undefined;
  /** The tool results the request ends with: the call continues the interaction that asked for them. */
  toolRuns?: readonly ToolRun[] | undefined;
  /**
   * The call carries no user message (an embedding): while an interaction awaits tools,
   * it is a step of that one, which it neither continues nor ends.
   */
  aside?: boolean | undefined;
}

/**
 * @internal Starts recording one observed call into `target`: a step of its turn, the
 * continuation of the interaction that awaits the tool results the call sends, or a new
 * interaction (input: `input`, the last user message's text). Never throws.
 * @example
 * ```ts
 * const call = beginInteractionCall(target, { input: lastUserText, toolRuns }, nebuly);
 * ```
 */
export function beginInteractionCall(target: NebulyTarget, start: CallStart, client: NebulyClient | undefined): ObservedCall {
  try {
    const runs = start.toolRuns ?? [];
    if ('turn' in target) {
      const call = new TurnCall(target.turn, undefined, client);
      lastInteraction.set(target, target.turn);
      recordRuns(target.turn, call, runs);
      return call;
    }
    const conversation = conversationOf(target);
    const destination = destinationOf(conversation ?? target);
    const latest = destination.pending.at(-1);
    if (start.aside === true && latest !== undefined && !turnInternals(latest.turn).closed()) {
      return new TurnCall(latest.turn, undefined, client);
    }
    const continued = runs.length > 0 ? takePending(destination, runs) : undefined;
    if (continued !== undefined) {
      const call = callIn(destination, continued, client);
      recordRuns(continued.turn, call, runs);
      return call;
    }
    settle(destination);
    const interaction = open(target, conversation, start.input ?? '');
    lastInteraction.set(target, interaction.turn);
    const call = callIn(destination, interaction, client);
    recordRuns(interaction.turn, call, runs);
    return call;
  } catch {
    // Only a bug gets here (every recorder call reports instead of throwing), and there
    // is no turn to report it through: the caller's call goes on, unrecorded.
    return NO_CALL;
  }
}

/**
 * @internal The id of the last interaction recorded through `target`.
 * @example
 * ```ts
 * lastInteractionId(target); // '7c0e…'
 * ```
 */
export function lastInteractionId(target: NebulyTarget): string | undefined {
  return lastInteraction.get(target)?.id;
}

/**
 * Ends the conversation a target records into, and sends it; an interaction still
 * awaiting tool results ends first, with the text it had (ended by `conversation.end()`
 * alone, it would be sent with output `''` and reported as `interaction_open`). For a
 * standalone target with a `conversationId`, its session's conversation; for
 * `{ conversation }`, that one. Resolves `undefined` when there is none open (no call
 * yet, or already ended), else the outcome of `conversation.end()`. A standalone target
 * without `conversationId` has a conversation per interaction, ended with it: this ends
 * one still awaiting tools, and resolves `undefined`. Never rejects.
 *
 * @example
 * ```ts
 * const target = { nebuly, endUser: userHash, conversationId: sessionId };
 * const openai = observeOpenAI(new OpenAI(), target);
 * // … the chat session's calls …
 * await endConversation(target); // the user closed the chat
 * ```
 */
export function endConversation(target: NebulyTarget): Promise<ConversationOutcome | undefined> {
  if ('turn' in target) return Promise.resolve(undefined);
  if ('nebuly' in target && target.conversationId === undefined) {
    // Its conversations are one interaction each, ended with it.
    const destination = destinations.get(target);
    if (destination !== undefined) settle(destination);
    return Promise.resolve(undefined);
  }
  const conversation = 'conversation' in target ? target.conversation : takeSession(target.nebuly, target.endUser, target.conversationId as string);
  if (conversation === undefined || conversation.ended) return Promise.resolve(undefined);
  const destination = destinations.get(conversation);
  if (destination !== undefined) settle(destination);
  return conversation.end();
}
