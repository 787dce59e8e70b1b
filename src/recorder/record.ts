import type { Attachment } from '../types/store.js';
import { newId } from './ids.js';
import type { ListNode } from './linked-list.js';
import { isPlainObject } from './plain-object.js';

/**
 * What the recording API keeps while a conversation is open: the caller's values as
 * given, copied shallowly (messages one level deeper) but neither validated nor
 * serialized, so that recording stays cheap. `payload.ts` turns a record into the wire
 * body when the conversation ends.
 */

/** One interaction (turn) as recorded. */
export interface InteractionRecord {
  /** The interaction's id ({@link Turn.id}): stable, for feedback sent later; see {@link newRecord}. */
  readonly id: string;
  input: unknown;
  /** `undefined` until the turn ends. */
  output: unknown;
  /** Milliseconds since the epoch, from the recorder's clock. */
  timeStart: number;
  /** When it started among the interactions of this process: orders those of the same millisecond. */
  readonly order: number;
  /** Milliseconds since the epoch; `NaN` until the turn ends. */
  timeEnd: number;
  ended: boolean;
  /** Taken by the recorder, once ended, to be checked and stored: later feedback goes to the store. */
  taken: boolean;
  /** The turn's own tags (a copy), without the conversation's. */
  tags: unknown;
  /** The A/B feature flags the turn ran under (a copy), `undefined` when none were given. */
  featureFlag: unknown;
  /**
   * The trace steps, in the order recorded, each with only the fields of its kind; an
   * entry marked {@link UNFINISHED_STEP} is a place kept for a step not known yet.
   */
  trace: Record<string, unknown>[];
  /** The feedback actions, created on the first one: most turns have none. */
  feedback: Record<string, unknown>[] | undefined;
}

/**
 * A record as its conversation keeps it while the turn may be open: linked among the
 * conversation's open turns, in the order they started (`linked-list.ts`: taken out when
 * the turn ends with a few field writes, where a `Set` hashed the record twice a turn).
 *
 * @example
 * ```ts
 * const openTurns = new LinkedList<OpenRecord>();
 * openTurns.append(newRecord(order, 'Hi', undefined, undefined, now));
 * ```
 */
export interface OpenRecord extends InteractionRecord, ListNode<OpenRecord> {}

/**
 * A record as `conversation.interaction()` makes it. Its id is made the first time it is
 * read (by the caller through `turn.id`, or by the store, off the caller's path) and then
 * kept: a random UUID costs about as much as the rest of recording an interaction, and
 * nobody can tell when it was made.
 */
class Recorded implements OpenRecord {
  #id: string | undefined = undefined;
  previous: OpenRecord | undefined = undefined;
  next: OpenRecord | undefined = undefined;
  input: unknown;
  output: unknown = undefined;
  timeStart: number;
  readonly order: number;
  timeEnd = Number.NaN;
  ended = false;
  taken = false;
  tags: unknown;
  featureFlag: unknown;
  trace: Record<string, unknown>[] = [];
  feedback: Record<string, unknown>[] | undefined = undefined;

  constructor(order: number, input: unknown, tags: unknown, featureFlag: unknown, timeStart: number) {
    this.order = order;
    this.input = input;
    this.tags = tags;
    this.featureFlag = featureFlag;
    this.timeStart = timeStart;
  }

  get id(): string {
    this.#id ??= newId();
    return this.#id;
  }
}

/**
 * A new record of an interaction that starts now: open, with no step, its id made when
 * first read.
 *
 * @example
 * ```ts
 * const record = newRecord(order, 'Hi', { plan: 'pro' }, ['new-prompt'], Date.now());
 * record.id; // made now, the same ever after
 * ```
 */
export function newRecord(order: number, input: unknown, tags: unknown, featureFlag: unknown, timeStart: number): OpenRecord {
  return new Recorded(order, input, tags, featureFlag, timeStart);
}

/**
 * Marks a trace entry kept for a step known only later (an integration's reserved place
 * for a streamed call, src/integrations/turn-access.ts) until the step fills it. An entry
 * still marked when the conversation is sent is a call whose end was never reported (a
 * stream abandoned unread): payload.ts leaves it out and says so once (`step_unfinished`).
 */
export const UNFINISHED_STEP: unique symbol = Symbol('nebuly.unfinishedStep');

/**
 * Attaches feedback or tags to an ended or open interaction not yet checked: feedback
 * after its own, tags over its own (tags that are no plain object are left for the check
 * to report).
 *
 * @example
 * ```ts
 * attachToRecord(record, { kind: 'tags', tags: { csat: '5' } });
 * ```
 */
export function attachToRecord(record: InteractionRecord, attachment: Attachment): void {
  if (attachment.kind === 'feedback') (record.feedback ??= []).push({ ...attachment.action });
  else if (record.tags === undefined || isPlainObject(record.tags)) record.tags = { ...record.tags, ...attachment.tags };
}
