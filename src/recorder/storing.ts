import { NebulyError, ValidationError } from '../core/errors.js';
import type { Mask } from '../core/privacy-options.js';
import type { AddTagsBody, ConversationInteraction, SendFeedbackBody } from '../schemas/index.js';
import type { Attachment, ConversationStore, SentInteraction, StoredInteraction } from '../types/store.js';
import { DeliveryError, messageOf, RecordingError } from './errors.js';
import { storeLost } from './store-lost.js';
import { type CheckedInteraction, checkInteraction, type ConversationTags } from './payload.js';
import { attachToRecord, type InteractionRecord, UNFINISHED_STEP } from './record.js';
import { isThenable } from '../utils/thenable.js';
import { SteadyMap } from '../utils/steady-map.js';
import { BoundedJobs, LANE, pace, RESOLVED } from './worker.js';
import { newId } from './ids.js';
import { startTimer } from './timers.js';
import { CUT, type Outbox } from './outbox.js';
import { ENDPOINT_PATHS } from '../core/endpoint-paths.js';

/** What the stage needs to know of the conversation an interaction belongs to. */
export interface ConversationRef {
  /** Its id in the recorder and the store. */
  readonly key: string;
  /** Its id as the caller knows it, named in errors. */
  readonly id: string;
  readonly endUser: string;
  readonly tags: ConversationTags;
  /** Whether it is still open: a step kept for later may still come. */
  readonly ended: boolean;
}

/** What {@link Storing} needs. */
export interface StoringOptions {
  store: ConversationStore;
  now: () => number;
  report: (error: NebulyError) => void;
  /** With `delivery: 'interaction'`: where checked interactions go instead of the store; resolves once sent or reported. */
  deliver?: ((conversation: ConversationRef, stored: StoredInteraction) => Promise<unknown>) | undefined;
  /** The client's `mask`: applied to each interaction before it is stored or sent. */
  mask?: Mask | undefined;
  /**
   * Numbers each interaction taken in its ledger; its cutoff passes at shutdown's
   * deadline, and a store write not done by then is given up and reported.
   */
  outbox: Outbox;
  /**
   * What happens to an ended interaction that does not fit `maxQueuedBytes` (each counts
   * against it until it is stored or sent, so that a store that stops answering or a
   * burst faster than the stages cannot pile them up):
   * - `'refuse'` (a shared store, or `delivery: 'interaction'`): refused at once, with its
   *   payload, under its own id as key; the interaction is the unit that is sent.
   * - `'defer'` (a store in this process's memory, conversations sent whole): kept as
   *   recorded, unchecked, with its conversation, whose end decides (`Sender.end`): then
   *   stored, or refused at once with the rest of the conversation, whole.
   */
  whenFull: 'refuse' | 'defer';
  /**
   * The most an interaction is sent as (`maxConversationBytes`): it counts against
   * `maxQueuedBytes` for at most that, at two bytes a character, since what is over it is
   * cropped before it is sent. A 50 MB turn is cropped and sent, not refused, nor its
   * conversation with it.
   */
  maxConversationBytes: number;
}

interface Pending {
  count: number;
  waiters: (() => void)[];
}

/**
 * What the interactions of one conversation kept whole in this process hold (see
 * {@link heldBytes}): counted against `maxQueuedBytes` (on their way to the store, or
 * in it once the conversation ended), or not (in the store while it is open: the open
 * conversations are bounded by `maxOpenConversations`, not by the queue).
 */
interface Account {
  counted: number;
  uncounted: number;
  /** Interactions that did not fit when they ended, unchecked: the conversation's end decides (see {@link Storing.count}). */
  deferred: Taken[] | undefined;
}

/** An interaction of a conversation left out whole, and how the conversation counts if nothing else of it is stored. */
export interface LeftOut {
  status: 'dropped' | 'failed';
  error: NebulyError;
}

/** An interaction taken, waiting to be checked and stored. */
interface Taken {
  conversation: ConversationRef;
  record: InteractionRecord;
  /** What it counts against `maxQueuedBytes` until stored (see `whenFull`). */
  bytes: number;
  /** Whether `bytes` is {@link recordBytes}, or a guess to be made exact before it is stored. */
  exact: boolean;
  /** Its number in the outbox's ledger. */
  number: number;
}

/**
 * How many interactions are checked and stored at a time: enough for a remote store's
 * commands to share its connection (they pipeline), few enough that thousands ended
 * together wait as one small entry each, not as suspended jobs the garbage collector
 * copies.
 */
const MAX_STORING = 32;

/**
 * This process, among those that store interactions of one conversation: made on first
 * use, never at import (workers refuse random values in global scope).
 */
let processOrigin: string | undefined;
function origin(): string {
  processOrigin ??= newId();
  return processOrigin;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * What an ended interaction waiting to be stored holds besides its values (see
 * {@link heldBytes}): its record, its place in the queue and the count of its
 * conversation's pending interactions, and the part of the conversation's own objects
 * that it keeps alive. Measured with bench/burst-heap.ts: a conversation of one tiny turn
 * holds about 1.6 kB from its end until it is sent.
 */
const TAKEN_OVERHEAD_BYTES = 1024;

/** `applyMask`'s module, once loaded (with the first masked interaction, attachment or body). */
let maskModule: typeof import('../privacy/apply-mask.js') | undefined;

/** Loads `applyMask`'s module (it needs zod): once, for every recorder. */
async function loadMask(): Promise<typeof import('../privacy/apply-mask.js')> {
  maskModule ??= await import('../privacy/apply-mask.js');
  return maskModule;
}

/** The most values {@link heldBytes} visits: an estimate, bounded in time whatever the record holds. */
const MAX_VISITED = 10_000;

/**
 * About what `values` hold in memory: their strings at two bytes a character (V8's
 * most), 64 bytes for each other value, and 256 for their entry. What an ended interaction
 * counts against `maxQueuedBytes` until stored (with a shared store), and what an
 * interaction sent at once keeps for late feedback and tags.
 *
 * @example
 * ```ts
 * heldBytes([sent.input, sent.output, endUser]);
 * ```
 */
export function heldBytes(values: unknown[]): number {
  // The stack is reused (this runs on the caller's path, for each ended turn): nothing
  // allocated but what a getter does. A getter that measures again gets its own.
  const stack = walking ? [] : shared;
  walking = stack === shared;
  for (const value of values) stack.push(value);
  let bytes = 256;
  let visited = 0;
  try {
    while (stack.length > 0 && visited < MAX_VISITED) {
      const value = stack.pop();
      visited += 1;
      if (typeof value === 'string') {
        bytes += 2 * value.length;
        continue;
      }
      bytes += 64;
      if (typeof value !== 'object' || value === null) continue;
      if (Array.isArray(value)) for (let index = 0; index < value.length; index += 1) stack.push(value[index]);
      else for (const key in value) stack.push((value as Record<string, unknown>)[key]);
    }
  } catch {
    // A getter that throws: the checks will say so; this is only an estimate.
  }
  stack.length = 0;
  if (stack === shared) walking = false;
  return bytes;
}

/** What a record holds, for `maxQueuedBytes`: {@link heldBytes} of its values and {@link TAKEN_OVERHEAD_BYTES}. */
function recordBytes(record: InteractionRecord): number {
  return heldBytes([record.input, record.output, record.trace, record.tags, record.feedback, record.featureFlag]) + TAKEN_OVERHEAD_BYTES;
}

/** What a step is guessed to hold before {@link recordBytes} measures it. */
const STEP_GUESS_BYTES = 1024;

/** How many times its guess the room must be for a turn to be taken on a guess (see `Storing.take`). */
const QUICK_MARGIN = 64;

function textLength(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/** {@link recordBytes} guessed without walking the record: its input and output, and {@link STEP_GUESS_BYTES} a step. */
function quickBytes(record: InteractionRecord): number {
  return 256 + 2 * (textLength(record.input) + textLength(record.output)) + STEP_GUESS_BYTES * record.trace.length + TAKEN_OVERHEAD_BYTES;
}

/** {@link heldBytes}' stack, reused, and whether a walk uses it. */
const shared: unknown[] = [];
let walking = false;

function hasUnfinishedStep(record: InteractionRecord): boolean {
  return record.trace.some((step) => UNFINISHED_STEP in step);
}

/**
 * The first stage of the recorder's background work: each ended interaction is checked
 * against the wire schema (what is invalid left out and reported) and put in the store,
 * one interaction a slice at most (see `pace`), off the caller's path. An interaction
 * whose integration still owes a step waits for it while its conversation is open.
 *
 * @example
 * ```ts
 * storing.take(conversation, record);
 * await storing.pending(conversation.key); // it is in the store
 * ```
 */
export class Storing {
  readonly #options: StoringOptions;
  readonly #pending = new SteadyMap<string, Pending>();
  /** Ended interactions waiting for a step an integration kept a place for. */
  readonly #parked = new Map<InteractionRecord, ConversationRef>();
  /**
   * The first interaction of a conversation left out whole (invalid: `dropped`; the store
   * did not take it: `failed`, reported with its payload), until the conversation ends.
   */
  readonly #leftOut = new Map<string, LeftOut>();
  /** Every interaction taken, until stored or given up. */
  readonly #jobs = new BoundedJobs<Taken>({ max: MAX_STORING, run: (taken, handOver) => this.#storeTaken(taken, handOver) });
  /** Interactions refused for `maxQueuedBytes`, until reported. */
  #refusing = 0;
  /** With `whenFull: 'defer'`: each conversation's account, from its first interaction taken until its end hands it over. */
  readonly #accounts = new SteadyMap<string, Account>();
  /** Interactions deferred in every account. */
  #deferredCount = 0;

  constructor(options: StoringOptions) {
    this.#options = options;
  }

  /** Takes an ended interaction to be checked and stored, unless it waits for a step (see the class). */
  take(conversation: ConversationRef, record: InteractionRecord): void {
    if (record.taken) return;
    if (!conversation.ended && hasUnfinishedStep(record)) {
      this.#parked.set(record, conversation);
      return;
    }
    if (this.#parked.size > 0) this.#parked.delete(record);
    record.taken = true;
    const { outbox, whenFull } = this.#options;
    // Far from the bound, a guess that costs nothing, made exact in the background
    // (`#storeTaken`); near it, exact now (walking a trace costs ~200 ns a turn).
    let bytes = this.#capped(quickBytes(record));
    const exact = !outbox.hasRoom(QUICK_MARGIN * bytes);
    if (exact) bytes = this.#capped(recordBytes(record));
    if (whenFull === 'defer') {
      const account = this.#accountOf(conversation.key);
      if (outbox.admit(bytes)) {
        account.counted += bytes;
        this.#queue(conversation, record, bytes, exact);
      } else {
        // Nothing done on the caller's path but a push: its conversation's end decides.
        (account.deferred ??= []).push({ conversation, record, bytes, exact, number: -1 });
        account.uncounted += bytes;
        this.#deferredCount += 1;
      }
      return;
    }
    if (outbox.admit(bytes)) {
      this.#queue(conversation, record, bytes, exact);
      return;
    }
    // Refused at once, not behind the store writes that do not end.
    this.#begin(conversation.key);
    const number = outbox.accept();
    this.#refusing += 1;
    void this.#settle(conversation, record, () => this.#refuse(conversation, record)).then(() => {
      this.#refusing -= 1;
      outbox.finish(number);
    });
  }

  /** `bytes`, or at most what an interaction is sent as (see `maxConversationBytes`). */
  #capped(bytes: number): number {
    return Math.min(bytes, 2 * this.#options.maxConversationBytes + TAKEN_OVERHEAD_BYTES);
  }

  #queue(conversation: ConversationRef, record: InteractionRecord, bytes: number, exact: boolean): void {
    this.#begin(conversation.key);
    this.#jobs.add({ conversation, record, bytes, exact, number: this.#options.outbox.accept() });
  }

  #accountOf(key: string): Account {
    let account = this.#accounts.get(key);
    if (account === undefined) {
      account = { counted: 0, uncounted: 0, deferred: undefined };
      this.#accounts.set(key, account);
    }
    return account;
  }

  /**
   * The conversation `key` ended: what its interactions hold, and `extra` for its end,
   * counted against `maxQueuedBytes` from now until {@link Storing.handOver}; `false`,
   * and nothing counted, when that does not fit.
   */
  count(key: string, extra: number): boolean {
    const account = this.#accountOf(key);
    if (!this.#options.outbox.admit(account.uncounted + extra)) return false;
    this.#counted(account, extra);
    return true;
  }

  /** Like {@link Storing.count}, past the bound: for an end that cannot be refused now. */
  hold(key: string, extra: number): void {
    const account = this.#accountOf(key);
    this.#options.outbox.hold(account.uncounted + extra);
    this.#counted(account, extra);
  }

  /** What `account` held uncounted is counted now, and its deferred interactions go to the store. */
  #counted(account: Account, extra: number): void {
    account.counted += account.uncounted + extra;
    account.uncounted = 0;
    const deferred = account.deferred;
    if (deferred === undefined) return;
    account.deferred = undefined;
    this.#deferredCount -= deferred.length;
    for (const { conversation, record, bytes, exact } of deferred) this.#queue(conversation, record, bytes, exact);
  }

  /**
   * The interactions of `key` deferred (see `whenFull`), checked and masked as the store
   * would keep them, for a conversation refused whole at its end; what is invalid is
   * reported and left out.
   */
  deferredOf(key: string): StoredInteraction[] | Promise<StoredInteraction[]> {
    const account = this.#accounts.get(key);
    const deferred = account?.deferred;
    if (account === undefined || deferred === undefined) return [];
    account.deferred = undefined;
    this.#deferredCount -= deferred.length;
    const checked = deferred.map(({ conversation, record }) => this.#checked(conversation, record));
    // Nearly always at once: the refused conversation's records are garbage before the caller goes on.
    if (!checked.some(isThenable)) return checked.filter((one) => one !== undefined) as StoredInteraction[];
    return Promise.all(checked).then((all) => all.filter((one) => one !== undefined));
  }

  /** Attaches feedback or tags to a deferred interaction of `key`; `false` when none has that id. */
  attachDeferred(key: string, interactionId: string, attachment: Attachment): boolean {
    const deferred = this.#accounts.get(key)?.deferred;
    const found = deferred?.find((taken) => taken.record.id === interactionId);
    if (found === undefined) return false;
    attachToRecord(found.record, attachment);
    return true;
  }

  /** The conversation `key` is with the outbox now (or met its fate): its account is closed. */
  handOver(key: string): void {
    const account = this.#accounts.get(key);
    if (account === undefined) return;
    this.#accounts.delete(key);
    if (account.counted > 0) this.#options.outbox.release(account.counted);
  }

  #storeTaken(taken: Taken, handOver: () => void): Promise<void> {
    const { conversation, record, number } = taken;
    const { outbox, whenFull } = this.#options;
    if (!taken.exact) this.#makeExact(taken);
    const { bytes } = taken;
    // Its bytes are held until it is written (or, sent at once, until the outbox counts
    // its body); kept whole, until its conversation is with the outbox once it ended.
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      if (whenFull === 'defer') {
        const account = this.#accounts.get(conversation.key);
        if (conversation.ended || account === undefined) return;
        account.counted -= bytes;
        account.uncounted += bytes;
      }
      outbox.release(bytes);
    };
    let handed = false;
    const release = (): void => {
      uncount();
      if (handed) return;
      handed = true;
      handOver();
    };
    const done = (): void => {
      this.#end(conversation.key);
      release();
      outbox.finish(number);
    };
    // Not on the caller's path: `turn.end()` has returned before this runs. Checked and
    // stored without a promise when nothing is waited for (a valid interaction, a store
    // in memory, the slice not over): nearly always, and a chain of async functions here
    // cost some 12 kB of garbage a conversation.
    const wait = pace(LANE.store);
    const storing = wait === undefined ? this.#store(conversation, record, release, uncount) : wait.then(() => this.#store(conversation, record, release, uncount));
    if (storing === undefined) {
      done();
      return RESOLVED;
    }
    return storing.then(done);
  }

  /** Counts what `taken` really holds in place of the guess it was taken with. */
  #makeExact(taken: Taken): void {
    const exact = this.#capped(recordBytes(taken.record));
    const more = exact - taken.bytes;
    taken.bytes = exact;
    taken.exact = true;
    if (more > 0) this.#options.outbox.hold(more);
    else this.#options.outbox.release(-more);
    const account = this.#options.whenFull === 'defer' ? this.#accounts.get(taken.conversation.key) : undefined;
    if (account !== undefined) account.counted += more;
  }

  /** Runs `work` on an interaction taken; its conversation's end waits for it. */
  async #settle(conversation: ConversationRef, record: InteractionRecord, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (cause) {
      // A bug: reported, never thrown, and the stage goes on.
      this.#options.report(new NebulyError(`Interaction ${record.id} could not be stored: ${messageOf(cause)}`, { cause }));
    }
    this.#end(conversation.key);
  }

  /** An interaction that did not fit `maxQueuedBytes`: reported with its payload, under its own id as key, and left out. */
  async #refuse(conversation: ConversationRef, record: InteractionRecord): Promise<void> {
    const stored = await this.#checked(conversation, record);
    if (stored === undefined) return;
    const outcome = await this.#options.outbox.refuse({
      conversationId: conversation.id,
      path: ENDPOINT_PATHS.sendConversation.path,
      body: encoder.encode(JSON.stringify({ conversation: { end_user: conversation.endUser, interactions: [stored.interaction] } })),
      idempotencyKey: stored.id,
      counted: false,
    });
    if ('error' in outcome) this.#leaveOut(conversation.key, { status: 'dropped', error: outcome.error });
  }

  /** A step of `record` settled: take it if it waited for that. */
  settled(record: InteractionRecord): void {
    const conversation = this.#parked.get(record);
    if (conversation !== undefined && !hasUnfinishedStep(record)) this.take(conversation, record);
  }

  /** The conversation ends: what waits for a step goes as it is (the step left out, and said). */
  release(conversation: ConversationRef): void {
    // Nearly always: nothing waits for a step (a copy of the map per conversation, else).
    if (this.#parked.size === 0) return;
    for (const [record, owner] of Array.from(this.#parked)) {
      if (owner.key === conversation.key) {
        this.#parked.delete(record);
        this.take({ ...conversation, ended: true }, record);
      }
    }
  }

  /**
   * Resolves once every interaction of `key` taken so far is stored (or given up and
   * reported); `undefined` when none is waiting to be: nothing to await.
   */
  pending(key: string): Promise<void> | undefined {
    const pending = this.#pending.get(key);
    if (pending === undefined) return undefined;
    return new Promise((resolve) => pending.waiters.push(resolve));
  }

  /** Whether interactions of `key` taken so far are still being stored (see {@link Storing.pending}). */
  isPending(key: string): boolean {
    return this.#pending.get(key) !== undefined;
  }

  /**
   * Why the conversation `key` may have nothing to send: its first interaction left out
   * whole, if any; forgotten once asked (when it ends).
   */
  leftOut(key: string): LeftOut | undefined {
    const error = this.#leftOut.get(key);
    this.#leftOut.delete(key);
    return error;
  }

  /** How many interactions were ended and are not yet stored (or given up): what a process exit loses. */
  get pendingCount(): number {
    return this.#jobs.count + this.#refusing + this.#parked.size + this.#deferredCount;
  }

  #begin(key: string): void {
    const pending = this.#pending.get(key);
    if (pending === undefined) this.#pending.set(key, { count: 1, waiters: [] });
    else pending.count += 1;
  }

  #end(key: string): void {
    const pending = this.#pending.get(key) as Pending;
    pending.count -= 1;
    if (pending.count === 0) {
      this.#pending.delete(key);
      for (const resolve of pending.waiters) resolve();
    }
  }

  /** Checks and stores (or sends) an interaction taken: `undefined` when that was done at once, else a promise that never rejects. */
  #store(conversation: ConversationRef, record: InteractionRecord, handOver: () => void, uncount: () => void): Promise<void> | undefined {
    const failed = (cause: unknown): void => {
      // A bug: reported, never thrown, and the stage goes on.
      this.#options.report(new NebulyError(`Interaction ${record.id} could not be stored: ${messageOf(cause)}`, { cause }));
    };
    try {
      const checked = this.#checked(conversation, record);
      if (isThenable(checked)) return checked.then((stored) => (stored === undefined ? undefined : this.#write(conversation, record, stored, handOver, uncount))).catch(failed);
      if (checked === undefined) return undefined;
      return this.#write(conversation, record, checked, handOver, uncount)?.catch(failed);
    } catch (cause) {
      failed(cause);
      return undefined;
    }
  }

  /**
   * The interaction checked against the wire schema (what is invalid left out and
   * reported) and masked, as the store keeps it; `undefined` when nothing of it is left.
   */
  #checked(conversation: ConversationRef, record: InteractionRecord): StoredInteraction | undefined | Promise<StoredInteraction | undefined> {
    // A value JSON cannot hold, or a bug: reported, never thrown into the caller.
    const failed = (cause: unknown): undefined => {
      this.#options.report(new NebulyError(`Interaction ${record.id} of conversation ${conversation.id} could not be recorded: ${messageOf(cause)}`, { cause }));
      return undefined;
    };
    try {
      // Most interactions are valid, checked at once, and stored at once when no mask waits to load.
      const checking = checkInteraction(record, conversation.tags);
      const masking = this.#options.mask !== undefined && maskModule === undefined;
      if (!(checking instanceof Promise) && !masking) return this.#stored(conversation, record, checking);
      return Promise.all([checking, masking ? loadMask() : undefined]).then(([checked]) => this.#stored(conversation, record, checked)).catch(failed);
    } catch (cause) {
      return failed(cause);
    }
  }

  /** The checked interaction as the store keeps it, masked (see {@link Storing.#checked}); what was found reported. */
  #stored(conversation: ConversationRef, record: InteractionRecord, checked: CheckedInteraction): StoredInteraction | undefined {
    const { report, mask } = this.#options;
    if (checked.issues.length > 0) {
      const invalid = new ValidationError(
        checked.issues,
        `interaction ${record.id} of conversation ${conversation.id} (an invalid step, feedback action or tag is left out; an invalid input or output leaves out the interaction)`,
      );
      if (checked.interaction === undefined) this.#leaveOut(conversation.key, { status: 'dropped', error: invalid });
      report(invalid);
    }
    if (checked.unfinished > 0) {
      report(
        new RecordingError(
          'step_unfinished',
          `${checked.unfinished} step(s) of interaction ${record.id} of conversation ${conversation.id} never finished ` +
            '(a stream or run whose end was never reported, such as a stream abandoned unread): left out',
          conversation.id,
        ),
      );
    }
    if (checked.interaction === undefined) return undefined;
    const interaction = mask === undefined ? checked.interaction : maskInteraction(mask, conversation.endUser, checked.interaction, report);
    if (interaction === undefined) return undefined;
    return { id: record.id, interaction, order: record.order, origin: origin() };
  }

  /**
   * After {@link Storing.#checked}: appends the interaction to the store, or sends it
   * (`delivery: 'interaction'`); `undefined` when done at once (a store that answers at once).
   */
  #write(
    conversation: ConversationRef,
    record: InteractionRecord,
    stored: StoredInteraction,
    handOver: () => void,
    uncount: () => void,
  ): Promise<void> | undefined {
    const { report, store, now, deliver } = this.#options;
    if (deliver !== undefined) {
      // Not counted twice: the outbox counts its body from here. Its place is free once
      // the outbox holds the body; its number, once it is sent.
      uncount();
      const sent = deliver(conversation, stored);
      handOver();
      return sent.then(() => undefined);
    }
    const { cutoff } = this.#options.outbox;
    const notTaken = (cause: unknown): void => {
      // Nothing dropped without a report: the interaction goes to onError as a body that
      // can be sent on its own (`nebuly replay`, `conversations.send`).
      const payload = JSON.stringify({ conversation: { end_user: conversation.endUser, interactions: [stored.interaction] } });
      const error = new NebulyError(`the conversation store did not take interaction ${record.id}: ${messageOf(cause)}`, { cause });
      // Under its own id as key: a replay is stored once, whoever replays it.
      const undelivered = new DeliveryError({ conversationId: conversation.id, payload, idempotencyKey: stored.id }, error);
      this.#leaveOut(conversation.key, { status: 'failed', error: undelivered });
      const lost = storeLost(cause, conversation.id);
      if (lost !== undefined) report(lost);
      report(undelivered);
    };
    try {
      // After shutdown's deadline nothing is written to a shared store (another instance
      // would send what this one reports): the interaction is reported instead.
      if (cutoff.passed && store.shared) throw cutoff.reason;
      // A store in memory answers at once; a thenable of any kind is awaited, until the deadline.
      const appended = store.append(conversation.key, conversation.endUser, [stored], now());
      if (!isThenable(appended)) return undefined;
      return cutoff.race(appended).then((result) => {
        if (result === CUT) notTaken(cutoff.reason);
      }, notTaken);
    } catch (cause) {
      notTaken(cause);
      return undefined;
    }
  }

  #leaveOut(key: string, leftOut: LeftOut): void {
    if (!this.#leftOut.has(key)) this.#leftOut.set(key, leftOut);
  }
}

/**
 * Masks one interaction as the body of a one-interaction conversation (what the mask
 * sees of the recorder's bodies), before anything keeps or sends it: the store, the bulk
 * send, the errors that carry payloads. `undefined` when the mask failed and the body is
 * withheld (reported).
 */
function maskInteraction(
  mask: Mask,
  endUser: string,
  interaction: ConversationInteraction,
  report: (error: NebulyError) => void,
): ConversationInteraction | undefined {
  // Loaded by `loadMask` before any interaction is masked.
  const { applyMask } = maskModule as typeof import('../privacy/apply-mask.js');
  const { body, error } = applyMask(mask, 'conversation', { conversation: { end_user: endUser, interactions: [interaction] } });
  if (error !== undefined) report(error);
  return body?.conversation.interactions[0];
}

/** What {@link LateSender} needs. */
export interface LateSenderOptions {
  store: ConversationStore;
  /** Numbers each attachment in its ledger, sends what goes to the service; its cutoff passes at shutdown's deadline. */
  outbox: Outbox;
  report: (error: NebulyError) => void;
  now: () => number;
  mask: Mask | undefined;
  /** With a shared store: how long an attachment waits for its interaction, which another instance may still be storing (`settleMs`). */
  settleMs?: number | undefined;
  /** Resolves once the interactions of the conversation `key` taken so far are in the store; `undefined`: they are. */
  stored: (key: string) => Promise<void> | undefined;
  /** Resolves once the conversations this process was sending are sent: one may hold the interaction. */
  sending: () => Promise<void>;
  /** Attaches to an interaction of `key` deferred until its conversation's end (`Storing.attachDeferred`); `false` when none is. */
  deferred: (key: string, interactionId: string, attachment: Attachment) => boolean;
  /** With `delivery: 'interaction'`: what this process sent of the interaction, kept for late attachments. */
  sentHere: (key: string, interactionId: string) => SentInteraction | undefined;
  /** How long what was sent of an interaction is kept for them (`feedbackRetentionMs`). */
  retentionMs: number;
}


/** How many times, spread over `settleMs`, an attachment looks again for an interaction not in the store yet. */
const SETTLE_RETRIES = 4;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => startTimer(resolve, ms, { keepAlive: true }));
}

/** What differs between the kinds of attachment: how they are named, and their endpoint's body. */
const KINDS = {
  feedback: {
    what: 'Feedback',
    unknown: 'feedback_unknown_interaction',
    path: ENDPOINT_PATHS.sendFeedback.path,
    // The service links feedback by end user, input and output, to an interaction that
    // ended before the feedback's time.
    body: (attachment: Attachment & { kind: 'feedback' }, sent: SentInteraction, now: number): SendFeedbackBody => ({
      action: attachment.action,
      metadata: { input: sent.input, output: sent.output, end_user: sent.endUser, timestamp: new Date(Math.max(now, Date.parse(sent.timeEnd) + 1)).toISOString() },
    }),
  },
  tags: {
    what: 'Tags',
    unknown: 'tags_unknown_interaction',
    path: ENDPOINT_PATHS.addTags.path,
    // The service finds the interaction by end user and `time_start`; input and output
    // tell apart two of the same millisecond.
    body: (attachment: Attachment & { kind: 'tags' }, sent: SentInteraction): AddTagsBody => ({
      tags: { ...attachment.tags },
      metadata: { end_user: sent.endUser, time_start: sent.timeStart, input: sent.input, output: sent.output },
    }),
  },
} as const;

/** The body of the endpoint that takes `attachment` for an interaction already sent. */
function bodyOf(attachment: Attachment, sent: SentInteraction, now: number): SendFeedbackBody | AddTagsBody {
  return attachment.kind === 'feedback' ? KINDS.feedback.body(attachment, sent, now) : KINDS.tags.body(attachment, sent);
}

/**
 * Feedback and tags that arrive after their interaction ended (`nebuly.feedback()`,
 * `nebuly.tag()`), from any instance: attached to the stored interaction while its
 * conversation is open; once it was sent, posted to the feedback or tags endpoint with
 * what the store kept of the interaction (input, output, end user, times), which is how
 * the service links them, under an `Idempotency-Key` of their own. Never throws; what
 * cannot be done is reported.
 *
 * @example
 * ```ts
 * await late.send(sharedKey(chatId), 'chat-1', turnId, { kind: 'tags', tags: { csat: '5' } });
 * ```
 */
export class LateSender {
  readonly #options: LateSenderOptions;

  constructor(options: LateSenderOptions) {
    this.#options = options;
  }

  /**
   * With `delivery: 'interaction'` and a shared store: keeps in the store what was sent of
   * `stored`, which never went through it, so that feedback and tags reach it from any
   * instance (this one also keeps it itself: `sentHere`). Never throws; a failure is reported.
   */
  keep(conversation: ConversationRef, stored: StoredInteraction): void {
    const { store, now, retentionMs, outbox, report } = this.#options;
    const { cutoff } = outbox;
    if (!store.shared || retentionMs <= 0 || cutoff.passed) return;
    const job = cutoff
      .race(Promise.resolve().then(() => store.keep(conversation.key, conversation.endUser, [stored], now(), now() + retentionMs)))
      .then(
        () => undefined,
        (cause: unknown) => {
          report(storeLost(cause, conversation.id) ?? new NebulyError(`Interaction ${stored.id} was sent, but the store did not keep it for later feedback and tags: ${messageOf(cause)}`, { cause }));
        },
      );
    outbox.track(job);
  }

  /**
   * The attachment as the store may keep it: with a mask, masked as what it becomes, part
   * of a stored interaction (a conversation body of one interaction holding only it, input
   * and output empty), fail closed; `undefined` when the mask withheld it (reported).
   */
  async #maskedToKeep(attachment: Attachment): Promise<Attachment | undefined> {
    const { mask, report, now } = this.#options;
    if (mask === undefined) return attachment;
    const { applyMask } = await loadMask();
    const time = new Date(now()).toISOString();
    const only = attachment.kind === 'feedback' ? { feedback_actions: [attachment.action] } : { tags: { ...attachment.tags } };
    const { body, error } = applyMask(mask, 'conversation', { conversation: { end_user: '-', interactions: [{ input: '', output: '', time_start: time, time_end: time, ...only }] } });
    if (error !== undefined) report(error);
    const interaction = body?.conversation.interactions[0];
    if (attachment.kind === 'feedback') {
      const action = interaction?.feedback_actions?.[0];
      return action === undefined ? undefined : { kind: 'feedback', action };
    }
    return interaction?.tags === undefined ? undefined : { kind: 'tags', tags: interaction.tags };
  }

  /** Attaches or sends `attachment` for the interaction; never rejects. */
  send(key: string, conversationId: string, interactionId: string, attachment: Attachment): Promise<void> {
    const { outbox, report } = this.#options;
    const { cutoff } = outbox;
    const { what } = KINDS[attachment.kind];
    const number = outbox.accept();
    const job = cutoff.race(this.#send(key, conversationId, interactionId, attachment)).then(
      (done) => {
        if (done === CUT) report(new NebulyError(`${what} on interaction ${interactionId} not recorded: ${messageOf(cutoff.reason)}`));
      },
      (cause: unknown) => {
        report(storeLost(cause, conversationId) ?? new NebulyError(`${what} on interaction ${interactionId} could not be recorded: ${messageOf(cause)}`, { cause }));
      },
    );
    return job.finally(() => outbox.finish(number));
  }

  async #send(key: string, conversationId: string, interactionId: string, attachment: Attachment): Promise<void> {
    const { store, now, stored, outbox, sending } = this.#options;
    const { cutoff } = outbox;
    await stored(key);
    // Masked with its interaction, once its conversation ends.
    if (this.#options.deferred(key, interactionId, attachment)) return;
    // What is attached in the store goes out with its conversation, which was masked
    // when stored: the attachment is masked now, on its own.
    const kept = await this.#maskedToKeep(attachment);
    // Withheld by the mask (reported): nothing of it may go out.
    if (kept === undefined) return;
    const attach = () => store.attach(key, interactionId, kept, now());
    if (await attach()) return;
    let sent = (await store.sent(key, interactionId, now())) ?? this.#options.sentHere(key, interactionId);
    if (sent === undefined) {
      // Its conversation may be on its way from this process: it is then kept once sent.
      await sending();
      if (await attach()) return;
      sent = await store.sent(key, interactionId, now());
    }
    // Another instance may have ended it just now and still be storing it: retried a
    // few times within `settleMs`.
    const settleMs = this.#options.settleMs ?? 0;
    for (let retry = 1; sent === undefined && retry <= SETTLE_RETRIES && settleMs > 0 && !cutoff.passed; retry += 1) {
      await cutoff.race(delay(settleMs / SETTLE_RETRIES));
      if (await attach()) return;
      sent = await store.sent(key, interactionId, now());
    }
    const kind = KINDS[attachment.kind];
    if (sent === undefined) {
      this.#options.report(
        new RecordingError(
          kind.unknown,
          `${kind.what} on interaction ${interactionId} of conversation ${conversationId} not recorded: no open conversation ` +
            'holds it, and none sent within feedbackRetentionMs did',
          conversationId,
        ),
      );
      return;
    }
    let body: SendFeedbackBody | AddTagsBody | undefined = bodyOf(attachment, sent, now());
    const { mask, report } = this.#options;
    if (mask !== undefined) {
      // Loaded with the first masked body: its check of the mask's output needs zod.
      const { applyMask } = await loadMask();
      const masked = attachment.kind === 'feedback' ? applyMask(mask, 'feedback', body as SendFeedbackBody) : applyMask(mask, 'tags', body as AddTagsBody);
      if (masked.error !== undefined) report(masked.error);
      body = masked.body;
    }
    // Past shutdown's deadline it was reported as not recorded: nothing more is done.
    if (body === undefined || cutoff.passed) return;
    await outbox.publish({
      conversationId,
      path: kind.path,
      body: encoder.encode(JSON.stringify(body)),
      idempotencyKey: newId(),
      counted: false,
    });
  }
}
