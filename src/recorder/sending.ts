import { AbortError, NebulyError, ValidationError } from '../core/errors.js';
import type { Mask } from '../core/privacy-options.js';
import type { ResolvedRecorderOptions } from '../core/recorder-options.js';
import { ENDPOINT_PATHS } from '../core/endpoint-paths.js';
import { shutdownOptionIssues } from '../core/shutdown-options.js';
import type { ConversationInteraction, SendConversationBody, SendInteractionBody } from '../schemas/index.js';
import type { ConversationClaim, ConversationStore, SentInteraction, StoredInteraction } from '../types/store.js';
import { isThenable } from '../utils/thenable.js';
import { BoundedJobs, LANE, pace, paced, RESOLVED } from './worker.js';
import type { DeliveryReport } from './delivery-report.js';
import type { EndReason } from './conversation.js';
import { messageOf, RecordingError } from './errors.js';
import { charsOver, type FittedBody, fitConversation, fitSmall } from './fit.js';
import { newId } from './ids.js';
import { labelOf } from './keys.js';
import type { ConversationOutcome } from './outcome.js';
import { CUT, Ledger, Outbox, type Transport } from './outbox.js';
import { storeLost } from './store-lost.js';
import { type ConversationRef, heldBytes, LateSender, Storing } from './storing.js';
import { MemoryStore } from './store/memory-store-class.js';
import type { Deadline } from './timers.js';
import { utf8ByteLength } from './utf8.js';

const decoder = /* @__PURE__ */ new TextDecoder();
const encoder = /* @__PURE__ */ new TextEncoder();

/** What the {@link Sender} needs. */
export interface SenderOptions {
  store: ConversationStore;
  storing: Storing;
  outbox: Outbox;
  report: (error: NebulyError) => void;
  now: () => number;
  leaseMs: number;
  maxConversationBytes: number;
  feedbackRetentionMs: number;
  /** With a shared store: how long an end waits for turns other instances are still storing (`settleMs`). */
  settleMs?: number | undefined;
  /** Called whenever an end, sweep or send settles. */
  settled?: (() => void) | undefined;
}

/**
 * How many conversations are claimed and built at a time. The rest wait as one small
 * entry each, not as running jobs: 10,000 conversations ended together would otherwise
 * hold 10,000 suspended jobs and their promises, copied by every scavenge of the heap.
 * A conversation frees its place once its body is with the outbox, whose queue and
 * byte bound hold it from then on.
 */
const MAX_BUILDING = 16;

/**
 * What an ended conversation costs from its end until its body is with the outbox,
 * besides what its interactions hold: its job, its promises, its outcome's. Counted
 * against `maxQueuedBytes` with them (`Storing.count`, see {@link Sender.end}).
 */
const ENDED_OVERHEAD_BYTES = 512;

/** What a store's claim gives: the claim, nothing held (`undefined`), or the outcome of a store that could not be read. */
type Claimed = ConversationClaim | ConversationOutcome | undefined;

/** The body of a refusal built from its payload (`Publication.payload`): never sent. */
const EMPTY = /* @__PURE__ */ new Uint8Array(0);

/** How many conversations one sweep claims at a time: bounded work per store call. */
const SWEEP_BATCH = 100;

/** An end or a sweep's send, waiting for its turn to be built. */
interface Job {
  /** `release`: its conversation's account is handed over (its body is about to be counted by the outbox). */
  run: (published: () => void, release: () => void) => Promise<ConversationOutcome>;
  conversationId: string;
  resolve: (outcome: ConversationOutcome) => void;
  /** The conversation whose account (`Storing.count`) it hands over with its body (see {@link Sender.end}). */
  account: string | undefined;
  /** Its number in the outbox's ledger, and in the sender's own (see `Sender.settled`). */
  number: number;
  own: number;
}

/**
 * The second stage of the recorder's background work: a conversation that ends (by
 * `end()`, idle, eviction, shutdown) or that a sweep finds idle is claimed from the store,
 * built into its body to fit `maxConversationBytes` (in slices, see `fitConversation`),
 * sent by the outbox with its generation as `Idempotency-Key`, and removed from a shared
 * store only once the service took it (or it was given up, and reported with its
 * payload); a send cut short by the shutdown deadline leaves it there for another
 * instance. A store in this process, which nobody else reads, is told at once, with the
 * body built: whatever the outcome, it keeps the same for late feedback.
 *
 * @example
 * ```ts
 * const outcome = await sender.end(conversation, 'end', []);
 * ```
 */
export class Sender {
  readonly #options: SenderOptions;
  /**
   * Ends and sweeps: built (claimed, fitted) {@link MAX_BUILDING} at a time, each handing
   * over its place once its body is with the outbox; settled once sent or given up,
   * and the store told.
   */
  readonly #jobs: BoundedJobs<Job>;
  /** With `delivery: 'interaction'`: the interactions being sent. */
  readonly #interactionSends: InteractionSends;
  /** With a shared store: how long an end waits before it claims (`settleMs`); 0 without. */
  readonly #settleMs: number;
  /** Ends and sweeps' sends, numbered apart from the outbox's other units (see {@link Sender.settled}). */
  readonly #sending = new Ledger();

  constructor(options: SenderOptions) {
    this.#options = options;
    this.#jobs = new BoundedJobs<Job>({
      max: MAX_BUILDING,
      run: (job, published) => this.#build(job, published),
      settled: () => options.settled?.(),
    });
    this.#interactionSends = new InteractionSends(options.outbox, options.maxConversationBytes, options.settled, { now: options.now, ms: options.feedbackRetentionMs });
    this.#settleMs = options.store.shared ? (options.settleMs ?? 0) : 0;
    // At shutdown's deadline, no end waits any more.
    if (this.#settleMs > 0) void options.outbox.cutoff.reached.then(() => this.#jobs.dueAll());
  }

  /**
   * Sends what the store holds of the conversation, once every interaction it took is
   * stored, and, with a shared store, once `settleMs` passed for the turns other
   * instances ended just before and are still storing. Never rejects.
   */
  end(conversation: Pick<ConversationRef, 'key' | 'id' | 'endUser'>, reason: EndReason, errors: NebulyError[]): Promise<ConversationOutcome> {
    const { store, storing, outbox } = this.#options;
    if (store.shared) {
      // Its settle time is when it may claim: a not-before time of its job.
      const notBefore = this.#settleMs > 0 && !outbox.cutoff.passed ? performance.now() + this.#settleMs : 0;
      return this.#track((published, release) => this.#end(conversation, reason, errors, published, release), conversation.id, notBefore);
    }
    // Held in this process until its body is with the outbox: counted against
    // maxQueuedBytes from now. What does not fit is refused now, whole, with its payload,
    // so that a burst faster than the stages does not hold thousands of ended
    // conversations (bench/burst-heap.ts); unless some of it is still being stored,
    // which was counted when it was taken.
    const { key, id } = conversation;
    if (!storing.count(key, ENDED_OVERHEAD_BYTES)) {
      if (!storing.isPending(key)) return this.#numbered(this.#refuseNow(conversation, reason, errors).finally(() => storing.handOver(key)), id);
      storing.hold(key, ENDED_OVERHEAD_BYTES);
    }
    return this.#track((published, release) => this.#end(conversation, reason, errors, published, release), id, 0, key);
  }

  /** Claims at most `limit` conversations idle since `idleBefore` (or abandoned by a sender), and no more than can be built at once, and sends them; resolves with how many. */
  async sweep(idleBefore: number, limit: number): Promise<number> {
    const { store, now, leaseMs, report } = this.#options;
    // Claimed only as many as can be built at once: a claim waiting its turn would let
    // its lease run out, and another sweeper send it too.
    const room = await this.#jobs.whenRoom();
    let claims: ConversationClaim[];
    try {
      claims = await store.claimIdle(idleBefore, now(), leaseMs, Math.min(limit, room));
    } catch (cause) {
      report(storeLost(cause) ?? new NebulyError(`The conversation store could not be swept: ${messageOf(cause)}`, { cause }));
      return 0;
    }
    for (const claim of claims) {
      const id = labelOf(claim.conversationId);
      void this.#track((published, release) => this.#send(claim, id, 'idle', [], published, release), id);
    }
    return claims.length;
  }

  /**
   * Ends and sends the conversations of a shared store that are idle everywhere (no
   * activity since `idleBefore`), or that a sender left unsent (its lease expired): claims
   * them in batches of {@link SWEEP_BATCH}, until a claim finds nothing. `sweep()` runs
   * it, and every `sweepIntervalMs`.
   */
  async sweepIdle(idleBefore: number): Promise<void> {
    while ((await this.sweep(idleBefore, SWEEP_BATCH)) > 0) await paced(LANE.end);
  }

  /** With `delivery: 'interaction'`: sends one interaction at once, with its conversation's id; resolves with its outcome. */
  sendInteraction(conversation: ConversationRef, stored: StoredInteraction): Promise<ConversationOutcome> {
    return this.#interactionSends.send(conversation, stored);
  }

  /** With `delivery: 'interaction'`: what was sent of an interaction, kept for late feedback. */
  sentInteraction(key: string, interactionId: string): SentInteraction | undefined {
    return this.#interactionSends.sent(key, interactionId);
  }

  /** How many ends and sweeps have not handed their body to the outbox yet (nor found nothing to send). */
  get unpublishedCount(): number {
    return this.#jobs.unhandedCount;
  }

  /** How many ends, sweeps and interaction sends are not over. */
  get runningCount(): number {
    return this.#jobs.count + this.#interactionSends.count;
  }

  /** Numbers an end or a sweep's send in the outbox's ledger, and queues it to be built. */
  #track(run: Job['run'], conversationId: string, notBefore = 0, account?: string): Promise<ConversationOutcome> {
    const number = this.#options.outbox.accept();
    const own = this.#sending.begin();
    return new Promise((resolve) => this.#jobs.add({ run, conversationId, resolve, number, own, account }, notBefore));
  }

  /** Numbers an end settled without a job (see {@link Sender.end}) in both ledgers, until `outcome` settles. */
  #numbered(outcome: Promise<ConversationOutcome>, conversationId: string): Promise<ConversationOutcome> {
    const number = this.#options.outbox.accept();
    const own = this.#sending.begin();
    return this.#settled(outcome, conversationId, number, own);
  }

  /**
   * `outcome`, a bug in it reported as a failure; then struck off both ledgers, `after`
   * run, and the outcome handed to `resolve` (a job's) or else resolved with.
   */
  #settled(outcome: Promise<ConversationOutcome>, conversationId: string, number: number, own: number): Promise<ConversationOutcome>;
  #settled(
    outcome: Promise<ConversationOutcome>,
    conversationId: string,
    number: number,
    own: number,
    after: () => void,
    resolve: (outcome: ConversationOutcome) => void,
  ): Promise<void>;
  #settled(
    outcome: Promise<ConversationOutcome>,
    conversationId: string,
    number: number,
    own: number,
    after?: () => void,
    resolve?: (outcome: ConversationOutcome) => void,
  ): Promise<ConversationOutcome | void> {
    // One reaction, not a catch and a finally, nor a second one to resolve a job's
    // promise: thousands of conversations go through here.
    const over = (settled: ConversationOutcome): ConversationOutcome | void => {
      after?.();
      this.#sending.finish(own);
      this.#options.outbox.finish(number);
      if (resolve === undefined) return settled;
      resolve(settled);
    };
    return outcome.then(over, (cause: unknown) => {
      // A bug: reported, never thrown into the caller's `end()`.
      const error = new NebulyError(`Conversation ${conversationId} could not be sent: ${messageOf(cause)}`, { cause });
      this.#options.report(error);
      return over({ status: 'failed', conversationId, error });
    });
  }

  /**
   * Resolves once every end and sweep's send begun before the call is over: for feedback
   * or tags on an interaction this process may be sending, which must not wait for the
   * outbox's other units too (another attachment waiting `settleMs` for its interaction,
   * say: chained, they held a chat's turns past `idleTimeoutMs`, and a sweep split it).
   */
  settled(): Promise<void> {
    return this.#sending.whenDone();
  }

  #build({ run, conversationId, resolve, number, own, account }: Job, published: () => void): Promise<void> {
    const release = (): void => {
      if (account !== undefined) this.#options.storing.handOver(account);
    };
    let running: Promise<ConversationOutcome>;
    try {
      running = run(published, release);
    } catch (cause) {
      running = Promise.reject(cause);
    }
    return this.#settled(running, conversationId, number, own, release, resolve);
  }

  /**
   * An end over `maxQueuedBytes` with nothing of it on its way to the store: its body
   * built now from what the store holds of it and what was deferred (`Storing`'s
   * `whenFull`), and refused ({@link Outbox.refuse}), whole, under its claim's generation
   * as key; the store's copy freed. With a store in memory and valid interactions, all
   * of it before the caller's `end()` returns: nothing of a burst's refused
   * conversations outlives the burst but their payloads.
   */
  #refuseNow(conversation: Pick<ConversationRef, 'key' | 'id' | 'endUser'>, reason: EndReason, errors: NebulyError[]): Promise<ConversationOutcome> {
    const { key, id } = conversation;
    const sent = this.#interactionSends.outcomeOf(key, id);
    if (sent !== undefined) {
      for (const error of errors) this.#options.report(error);
      return sent;
    }
    const deferred = this.#options.storing.deferredOf(key);
    if (isThenable(deferred)) return deferred.then((ready) => this.#refuseWith(conversation, reason, errors, ready));
    return this.#refuseWith(conversation, reason, errors, deferred);
  }

  #refuseWith(
    conversation: Pick<ConversationRef, 'key' | 'id' | 'endUser'>,
    reason: EndReason,
    errors: NebulyError[],
    deferred: StoredInteraction[],
  ): Promise<ConversationOutcome> {
    const claiming = this.#claim(conversation, errors);
    if (isThenable(claiming)) return claiming.then((claim) => this.#refuseClaimed(conversation, reason, errors, deferred, claim));
    return this.#refuseClaimed(conversation, reason, errors, deferred, claiming);
  }

  #refuseClaimed(
    conversation: Pick<ConversationRef, 'key' | 'id' | 'endUser'>,
    reason: EndReason,
    errors: NebulyError[],
    deferred: StoredInteraction[],
    claim: ConversationClaim | ConversationOutcome | undefined,
  ): Promise<ConversationOutcome> {
    const { store, storing, outbox, now, report } = this.#options;
    const { key, id } = conversation;
    if (claim !== undefined && !('generation' in claim)) return Promise.resolve(claim);
    const interactions = claim === undefined ? deferred : [...claim.interactions, ...deferred];
    // Never sent: nothing kept for later feedback (it finds no interaction, and says so).
    const freed = claim === undefined ? Promise.resolve() : settleClaim(() => store.complete(claim, now()), report);
    if (interactions.length === 0) return freed.then(() => this.#nothingToSend(key, id, errors));
    // Its left-out interactions were reported on their own.
    storing.leftOut(key);
    if (reason === 'evicted') errors.push(evictedError(id));
    const payload = JSON.stringify({ conversation: { end_user: claim?.endUser ?? conversation.endUser, interactions: ordered(interactions).map((one) => one.interaction) } });
    const refused = outbox.refuse({ conversationId: id, path: ENDPOINT_PATHS.sendConversation.path, body: EMPTY, payload, idempotencyKey: claim?.generation ?? newId() }, errors);
    return freed.then(() => refused);
  }

  /**
   * Claims what the store holds of the conversation (at once from a store that answers
   * at once): `undefined` when it holds nothing, the conversation's outcome when it could
   * not be read (reported).
   */
  #claim(conversation: Pick<ConversationRef, 'key' | 'id'>, errors: NebulyError[]): Claimed | Promise<Claimed> {
    const { store, outbox, now, leaseMs, report } = this.#options;
    const { cutoff } = outbox;
    const { key, id } = conversation;
    const unread = (cause: unknown): ConversationOutcome => {
      // Still in the store: with a shared one, a sweep (of this instance or another) sends it later.
      const error = new NebulyError(
        `The conversation store could not be read to end conversation ${id}: ${messageOf(cause)}` +
          (store.shared ? '; it stays in the shared store, for a sweep to send' : ''),
        { cause },
      );
      for (const found of errors) report(found);
      report(storeLost(cause, id) ?? error);
      outbox.count('failed');
      return { status: 'failed', conversationId: id, error };
    };
    try {
      const claiming = store.claim(key, now(), leaseMs);
      if (!isThenable(claiming)) return claiming;
      return cutoff.race(claiming).then((claimed) => {
        if (claimed === CUT) throw cutoff.reason;
        return claimed;
      }).catch(unread);
    } catch (cause) {
      return unread(cause);
    }
  }

  /** The outcome of a conversation the store holds nothing of; what was found reported. */
  #nothingToSend(key: string, id: string, errors: NebulyError[]): Promise<ConversationOutcome> | ConversationOutcome {
    const { storing, outbox, report } = this.#options;
    const leftOut = storing.leftOut(key);
    for (const found of errors) report(found);
    // Interactions were recorded, but none was valid (dropped), or none reached the
    // store (failed): each already reported with its payload.
    if (leftOut?.status === 'dropped') return outbox.drop(id, leftOut.error, []);
    if (leftOut !== undefined) {
      outbox.count('failed');
      return { status: 'failed', conversationId: id, error: leftOut.error };
    }
    return { status: 'empty', conversationId: id };
  }

  async #end(
    conversation: Pick<ConversationRef, 'key' | 'id'>,
    reason: EndReason,
    errors: NebulyError[],
    published: () => void,
    release: () => void,
  ): Promise<ConversationOutcome> {
    const { storing, report } = this.#options;
    const { key, id } = conversation;
    // Thousands may end together (shutdown, a wave of idle ones): each waits its turn.
    // Awaited only when there is something to wait for: each await is a promise and a
    // resumption, and a wave has thousands of ends.
    const turn = pace(LANE.end);
    if (turn !== undefined) await turn;
    const stored = storing.pending(key);
    if (stored !== undefined) await stored;
    const sent = this.#interactionSends.outcomeOf(key, id);
    if (sent !== undefined) {
      for (const error of errors) report(error);
      published();
      return sent;
    }
    // A store in memory answers at once: no await, and no promise made for it.
    const claiming = this.#claim(conversation, errors);
    const claim = isThenable(claiming) ? await claiming : claiming;
    if (claim === undefined) return this.#nothingToSend(key, id, errors);
    if (!('generation' in claim)) return claim;
    // Its left-out interactions were reported on their own.
    storing.leftOut(key);
    return this.#send(claim, id, reason, errors, published, release);
  }

  async #send(
    claim: ConversationClaim,
    id: string,
    reason: EndReason,
    errors: NebulyError[],
    published: () => void,
    release: () => void,
  ): Promise<ConversationOutcome> {
    const { store, outbox, now, maxConversationBytes, feedbackRetentionMs, report } = this.#options;
    const turn = pace(LANE.send);
    if (turn !== undefined) await turn;
    if (claim.interactions.length === 0) {
      const completed = settleClaim(() => store.complete(claim, now()), report);
      if (completed !== RESOLVED) await outbox.cutoff.race(completed);
      for (const found of errors) report(found);
      return { status: 'empty', conversationId: id };
    }
    if (reason === 'evicted') errors.push(evictedError(id));
    const stored = ordered(claim.interactions);
    const interactions = stored.map((one) => one.interaction);
    // More than one interaction: too large for one bulk body, nothing is cropped or left
    // out, each interaction goes on its own. One alone is cropped to fit.
    // A small one, as nearly all are, at once: no promise and no suspended frame for it.
    const fitted =
      fitSmall(claim.endUser, interactions, maxConversationBytes) ??
      (stored.length > 1
        ? await fitConversation(claim.endUser, interactions, maxConversationBytes, { crop: false })
        : await fitConversation(claim.endUser, interactions, maxConversationBytes));
    let outcome: ConversationOutcome;
    // From here the outbox counts it.
    release();
    if ('tooLarge' in fitted) {
      // What the store holds of it, about its JSON's length (V8 keeps ASCII at a byte a character).
      outcome = await this.#sendEach(claim, id, stored, errors, fitted.chars, published);
    } else {
      if (fitted.croppedStrings > 0 || fitted.droppedInteractions > 0) errors.push(croppedError(id, maxConversationBytes, fitted));
      const sent = outbox.publish(
        {
          conversationId: id,
          path: ENDPOINT_PATHS.sendConversation.path,
          body: fitted.body,
          idempotencyKey: claim.generation,
          // A store in this process keeps it from now on: once sent, what late feedback
          // needs (its inputs and outputs: about its body when they are large).
          heldElsewhere: store.shared ? 0 : heldByStore(fitted),
        },
        errors,
      );
      published();
      // A store in this process is told the same whatever the outcome (`complete`: what
      // late feedback needs is kept), so it is told now, with the body built: neither it
      // nor this function then holds the claimed interactions (every object of every
      // turn) while the body waits for a place and its answer. Waiting, they outlived
      // collections of the young generation, and were copied into the old one.
      if (!store.shared) return this.#completeNow(claim, sent);
      outcome = await sent;
    }
    const abandoned = outcome.status === 'failed' && outcome.error.cause instanceof AbortError;
    // Its fate is known: the store is told, but not waited for past shutdown's deadline.
    const settling =
      abandoned && store.shared
        ? settleClaim(() => store.release(claim), report)
        : settleClaim(() => store.complete(claim, now() + feedbackRetentionMs), report);
    if (settling !== RESOLVED) await outbox.cutoff.race(settling);
    return outcome;
  }

  /** `sent`, once a store in this process was told that `claim` is over (not waited for past shutdown's deadline). */
  #completeNow(claim: ConversationClaim, sent: Promise<ConversationOutcome>): Promise<ConversationOutcome> {
    const { store, outbox, now, feedbackRetentionMs, report } = this.#options;
    const settling = settleClaim(() => store.complete(claim, now() + feedbackRetentionMs), report);
    return settling === RESOLVED ? sent : outbox.cutoff.race(settling).then(() => sent);
  }

  /**
   * Sends a conversation too large for one bulk body interaction by interaction, to the
   * interaction endpoint with its `conversation_id`, each under its own id as
   * `Idempotency-Key`; only an interaction too large on its own is cropped. Counted once,
   * as the conversation: the first failure, else delivered.
   */
  async #sendEach(
    claim: ConversationClaim,
    id: string,
    stored: readonly StoredInteraction[],
    errors: NebulyError[],
    held: number,
    published: () => void,
  ): Promise<ConversationOutcome> {
    const { store, outbox, maxConversationBytes } = this.#options;
    const sends: Promise<ConversationOutcome>[] = [];
    for (const [index, one] of stored.entries()) {
      // Reported with its part: what was found before goes with the first.
      const found = index === 0 ? errors : [];
      const body = wholeInteractionBody(id, claim.endUser, one.interaction, maxConversationBytes) ?? (await croppedInteractionBody(id, claim.endUser, one, maxConversationBytes, found));
      const part = outbox.publish(
        {
          conversationId: id,
          path: ENDPOINT_PATHS.sendInteraction.path,
          body,
          idempotencyKey: one.id,
          counted: false,
          // What the store holds of the whole conversation, counted with its first part.
          heldElsewhere: index === 0 && !store.shared ? held : 0,
        },
        found,
      );
      sends.push(part);
      const wait = pace(LANE.send);
      if (wait !== undefined) await wait;
    }
    published();
    const outcome = summarize(id, await Promise.all(sends));
    outbox.count(outcome.status);
    return outcome;
  }
}

/**
 * {@link interactionBody} when it fits `maxBytes`, else `undefined`: serialized once,
 * unless its strings alone could not fit (then never whole: it is cropped).
 */
function wholeInteractionBody(conversationId: string, endUser: string, interaction: ConversationInteraction, maxBytes: number): Uint8Array | undefined {
  if (charsOver(interaction, maxBytes)) return undefined;
  const body = interactionBody(conversationId, endUser, interaction);
  return body.byteLength > maxBytes ? undefined : body;
}

/**
 * {@link interactionBody} of `one` with its longest strings cropped to fit `maxBytes`;
 * the error that says so is pushed to `found`. Only one interaction over the limit by
 * itself is ever cropped: the rest of its conversation goes whole.
 */
async function croppedInteractionBody(
  conversationId: string,
  endUser: string,
  one: StoredInteraction,
  maxBytes: number,
  found: NebulyError[],
): Promise<Uint8Array> {
  // The interaction endpoint's body also names the conversation: room for that.
  const room = maxBytes - utf8ByteLength(conversationId) - 64;
  const fitted = await fitConversation(endUser, [one.interaction], room);
  found.push(croppedError(conversationId, maxBytes, fitted, one.id));
  const cropped = (JSON.parse(decoder.decode(fitted.body)) as SendConversationBody).conversation.interactions[0] ?? one.interaction;
  return interactionBody(conversationId, endUser, cropped);
}

/** What is reported of a conversation ended early to stay within `maxOpenConversations`. */
function evictedError(id: string): RecordingError {
  return new RecordingError(
    'conversation_evicted',
    `Conversation ${id} was ended early and sent: it was the longest idle of maxOpenConversations open ones ` +
      'when another started; later calls on it are not recorded',
    id,
  );
}

/**
 * In the order they started, whichever instance stored them first (nearly always the
 * order they are in: then not copied to be sorted).
 */
function ordered(interactions: readonly StoredInteraction[]): readonly StoredInteraction[] {
  return inOrder(interactions) ? interactions : interactions.slice().sort(byStart);
}

/** What is reported of a conversation (or of one of its interactions, sent alone) cropped to fit `maxBytes`. */
function croppedError(id: string, maxBytes: number, fitted: FittedBody, interactionId?: string): RecordingError {
  const what = interactionId === undefined ? `Conversation ${id}` : `Interaction ${interactionId} of conversation ${id}, sent on its own,`;
  return new RecordingError(
    'conversation_cropped',
    `${what} was over maxConversationBytes (${maxBytes}) as JSON: ` +
      `${fitted.croppedStrings} of its longest strings were cropped` +
      (fitted.droppedInteractions > 0 ? `, and its ${fitted.droppedInteractions} latest interaction(s) left out` : '') +
      `, to ${fitted.body.byteLength} bytes`,
    id,
  );
}

/**
 * In the order they started: by `time_start`; in the same millisecond, by the order of
 * the process that recorded both, else as the store has them (the order they were stored,
 * which for turns of one chat served one after the other is the order they happened).
 */
function byStart(a: StoredInteraction, b: StoredInteraction): number {
  const { time_start: first } = a.interaction;
  const { time_start: second } = b.interaction;
  if (first !== second) return first < second ? -1 : 1;
  return a.origin === b.origin ? (a.order ?? 0) - (b.order ?? 0) : 0;
}

/** Whether `interactions` are already in the order {@link byStart} gives. */
function inOrder(interactions: readonly StoredInteraction[]): boolean {
  for (let index = 1; index < interactions.length; index += 1) {
    if (byStart(interactions[index - 1] as StoredInteraction, interactions[index] as StoredInteraction) > 0) return false;
  }
  return true;
}

/**
 * What a store in this process's memory keeps of a conversation while its body waits
 * (its interactions, or once told it is complete, what late feedback needs of them):
 * about its body's size when all of it is ASCII (V8 keeps such strings at one byte a
 * character), else up to twice that (a character past Latin-1 makes its string two
 * bytes a character).
 */
function heldByStore({ body, chars }: FittedBody): number {
  return chars === body.byteLength ? body.byteLength : 2 * body.byteLength;
}

/** Runs a store call that ends a claim; a failure is reported (the lease then expires, and the conversation is sent again). */
function settleClaim(call: () => unknown, report: (error: NebulyError) => void): Promise<void> {
  const failed = (cause: unknown): void => {
    report(storeLost(cause) ?? new NebulyError(`The conversation store could not record a sent conversation: ${messageOf(cause)}`, { cause }));
  };
  try {
    const settled = call();
    // A store in memory answers at once: nothing to wait for.
    return isThenable(settled) ? Promise.resolve(settled).then(() => undefined, failed) : RESOLVED;
  } catch (cause) {
    failed(cause);
    return RESOLVED;
  }
}

/** The most interactions kept for late feedback and tags, and the most memory they may take (the memory store's defaults). */
const MAX_KEPT = 10_000;
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * With `delivery: 'interaction'`: each checked interaction is sent at once to the
 * interaction endpoint, with its conversation's id and its own id as `Idempotency-Key`,
 * instead of waiting in the store for its conversation's end; the conversation's outcome
 * is then the first failure of its sends, else `delivered`.
 *
 * @example
 * ```ts
 * sends.send(conversation, stored);
 * const outcome = await sends.outcomeOf(conversation.key, conversation.id);
 * ```
 */
export class InteractionSends {
  readonly #outbox: Outbox;
  readonly #settled: (() => void) | undefined;
  /** Sends not settled. */
  #running = 0;
  /** Each conversation's sends, until its outcome is asked for. */
  readonly #byConversation = new Map<string, Promise<ConversationOutcome>[]>();
  /**
   * What was sent of each interaction, for feedback and tags that come after it: no store holds
   * it in this mode. Oldest first, each until its `until`, at most {@link MAX_KEPT}
   * interactions and {@link MAX_KEPT_BYTES} (as the memory store keeps sent ones).
   */
  readonly #kept = new Map<string, { sent: SentInteraction; until: number; bytes: number }>();
  #keptBytes = 0;
  readonly #retention: { now: () => number; ms: number };
  /** `maxConversationBytes`: an interaction over it is cropped to it. */
  readonly #maxBytes: number;

  constructor(outbox: Outbox, maxBytes: number, settled?: () => void, retention = { now: Date.now, ms: 0 }) {
    this.#outbox = outbox;
    this.#maxBytes = maxBytes;
    this.#settled = settled;
    this.#retention = retention;
  }

  /** What was sent of the interaction `interactionId` of the conversation `key`, if it is still kept. */
  sent(key: string, interactionId: string): SentInteraction | undefined {
    const kept = this.#kept.get(`${key}\n${interactionId}`);
    return kept !== undefined && kept.until >= this.#retention.now() ? kept.sent : undefined;
  }

  #keep(key: string, id: string, endUser: string, interaction: ConversationInteraction): void {
    const { now, ms } = this.#retention;
    if (ms <= 0) return;
    const sent: SentInteraction = { endUser, input: interaction.input, output: interaction.output, timeStart: interaction.time_start, timeEnd: interaction.time_end };
    const bytes = heldBytes([sent.input, sent.output, endUser]);
    this.#kept.set(`${key}\n${id}`, { sent, until: now() + ms, bytes });
    this.#keptBytes += bytes;
    // The oldest go first: past their time, or to make room.
    for (const [name, kept] of this.#kept) {
      if (kept.until >= now() && this.#kept.size <= MAX_KEPT && this.#keptBytes <= MAX_KEPT_BYTES) break;
      this.#kept.delete(name);
      this.#keptBytes -= kept.bytes;
    }
  }

  /** Sends one interaction; resolves with its outcome. */
  send(conversation: ConversationRef, stored: StoredInteraction): Promise<ConversationOutcome> {
    const { id, endUser } = conversation;
    const publish = (body: Uint8Array, found?: NebulyError[]) =>
      this.#outbox.publish({ conversationId: id, path: ENDPOINT_PATHS.sendInteraction.path, body, idempotencyKey: stored.id }, found);
    const whole = wholeInteractionBody(id, endUser, stored.interaction, this.#maxBytes);
    let sent: Promise<ConversationOutcome>;
    if (whole !== undefined) sent = publish(whole);
    else {
      const found: NebulyError[] = [];
      sent = croppedInteractionBody(id, endUser, stored, this.#maxBytes, found).then((body) => publish(body, found));
    }
    this.#keep(conversation.key, stored.id, conversation.endUser, stored.interaction);
    const sends = this.#byConversation.get(conversation.key);
    if (sends === undefined) this.#byConversation.set(conversation.key, [sent]);
    else sends.push(sent);
    this.#running += 1;
    return sent.finally(() => {
      this.#running -= 1;
      this.#settled?.();
    });
  }

  /** How many sends are not settled. */
  get count(): number {
    return this.#running;
  }

  /** The outcome of the conversation `key` from its sends, forgotten once asked; `undefined` when it had none. */
  outcomeOf(key: string, conversationId: string): Promise<ConversationOutcome> | undefined {
    const sends = this.#byConversation.get(key);
    if (sends === undefined) return undefined;
    this.#byConversation.delete(key);
    return Promise.all(sends).then((outcomes) => summarize(conversationId, outcomes));
  }
}

/**
 * The body of one interaction for the interaction endpoint (v3 `trace_interaction`),
 * which names its conversation: how `delivery: 'interaction'` sends each, and how a
 * conversation too large for one bulk body goes out.
 *
 * @example
 * ```ts
 * outbox.publish({ conversationId, path: ENDPOINT_PATHS.sendInteraction.path, body: interactionBody(conversationId, endUser, interaction), idempotencyKey });
 * ```
 */
export function interactionBody(conversationId: string, endUser: string, interaction: ConversationInteraction): Uint8Array {
  const body: SendInteractionBody = {
    interaction: {
      conversation_id: conversationId,
      input: interaction.input,
      output: interaction.output,
      time_start: interaction.time_start,
      time_end: interaction.time_end,
      end_user: endUser,
      ...(interaction.tags === undefined ? {} : { tags: interaction.tags }),
    },
    traces: interaction.trace ?? [],
    user_feedback: interaction.feedback_actions ?? [],
  };
  return encoder.encode(JSON.stringify(body));
}

/**
 * One outcome for a conversation sent an interaction at a time: the first failure, else delivered.
 *
 * @example
 * ```ts
 * summarize('chat-1', [{ status: 'delivered', conversationId: 'chat-1' }]); // delivered
 * ```
 */
export function summarize(conversationId: string, outcomes: readonly ConversationOutcome[]): ConversationOutcome {
  const failed = outcomes.find((outcome) => outcome.status === 'failed' || outcome.status === 'dropped');
  if (failed !== undefined) return { ...failed, conversationId };
  return outcomes.length === 0 ? { status: 'empty', conversationId } : { status: 'delivered', conversationId };
}

/** The recorder's background stages, connected: what an ended turn and conversation go through. */
export interface Stages {
  store: ConversationStore;
  /** Checks, masks and stores each ended interaction. */
  storing: Storing;
  /** Claims each ended conversation, fits it, and hands it to the outbox. */
  sender: Sender;
  /** Feedback and tags that arrive after their interaction was stored or sent. */
  late: LateSender;
  /** Sends bodies: the queue, its bound, retries, the shutdown deadline. */
  outbox: Outbox;
  /**
   * What `shutdown()` runs once it has closed the open conversations to recording: lets
   * go of them and closes the stages by the deadline ({@link closeAll}); resolves with the report.
   * `given`, `shutdown()`'s options as the caller passed them: what it could not use is reported here.
   */
  close: <C>(parts: LettingGo<C>, deadline: Deadline, given?: unknown) => Promise<DeliveryReport>;
  /**
   * Between two units of work the loader hands over (what waited for the stages to load):
   * `undefined` to go on, or a promise to await first, so that the host runs (see `pace`).
   */
  pace: () => Promise<void> | undefined;
  /** What `flush()` runs: resolves, after `before`, once what was taken before the call met its fate, with the report. */
  flush: (before: Promise<unknown>) => Promise<DeliveryReport>;
}

/** What {@link connectStages} needs. */
export interface StagesInit {
  options: ResolvedRecorderOptions;
  transport: Transport;
  report: (error: NebulyError) => void;
  mask: Mask | undefined;
  /** Called whenever a send settles or the queue drains: what is at risk at exit changed. */
  changed: () => void;
}

/**
 * Makes the recorder's stages and connects them: storing → sender → outbox, and late
 * feedback and tags beside them, all on one store (`recorder.store`, the memory store by default).
 *
 * @example
 * ```ts
 * const { storing, sender } = connectStages({ options, transport, report, mask: undefined, changed: () => undefined });
 * ```
 */
export function connectStages({ options, transport, report, mask, changed }: StagesInit): Stages {
  const store = options.store ?? new MemoryStore();
  const outbox = new Outbox({
    transport,
    report,
    maxConcurrentSends: options.maxConcurrentSends,
    maxQueuedConversations: options.maxQueuedConversations,
    maxQueuedBytes: options.maxQueuedBytes,
    drained: changed,
  });
  // With `delivery: 'interaction'`, storing an interaction sends it.
  const deliver: ConstructorParameters<typeof Storing>[0]['deliver'] =
    options.delivery === 'interaction'
      ? (conversation, stored) => {
          const sent = sender.sendInteraction(conversation, stored);
          late.keep(conversation, stored);
          return sent;
        }
      : undefined;
  // A shared store may stop answering (Redis down): its writes count against maxQueuedBytes.
  // A conversation kept whole in this process's memory is refused whole (at its end), else each interaction on its own.
  const whenFull = store.shared === true || deliver !== undefined ? 'refuse' : 'defer';
  const storing = new Storing({ store, now: options.now, report, deliver, mask, outbox, whenFull, maxConversationBytes: options.maxConversationBytes });
  const sender = new Sender({
    store,
    storing,
    outbox,
    report,
    now: options.now,
    leaseMs: options.leaseMs,
    maxConversationBytes: options.maxConversationBytes,
    feedbackRetentionMs: options.feedbackRetentionMs,
    settleMs: options.settleMs,
    settled: changed,
  });
  const late = new LateSender({
    store,
    outbox,
    report,
    now: options.now,
    mask,
    settleMs: store.shared ? options.settleMs : 0,
    stored: (key) => storing.pending(key),
    deferred: (key, interactionId, attachment) => storing.attachDeferred(key, interactionId, attachment),
    sending: () => sender.settled(),
    sentHere: (key, interactionId) => sender.sentInteraction(key, interactionId),
    retentionMs: options.feedbackRetentionMs,
  });
  const close = <C>(parts: LettingGo<C>, deadline: Deadline, given?: unknown): Promise<DeliveryReport> => {
    outbox.beginFinal();
    const issues = shutdownOptionIssues(given);
    if (issues.length > 0) report(new ValidationError(issues, 'shutdown() options'));
    const closing: ClosingParts<C> = {
      ...parts,
      expire: (reason) => outbox.abandon(reason),
      settled: () => outbox.settled(),
      report: () => outbox.finalReport(),
    };
    return closeAll(closing, deadline);
  };
  // One number for everything accepted before the call, whatever stage it is in.
  const flush = (before: Promise<unknown>): Promise<DeliveryReport> => Promise.all([outbox.settled(), before]).then(() => outbox.report());
  return { store, storing, sender, late, outbox, close, flush, pace: () => pace(LANE.end) };
}

/** Options of `nebuly.shutdown`. */
export interface ShutdownOptions {
  /**
   * How long to wait for the last sends; then the requests still running are aborted and
   * what is left goes to `onError`. `Infinity`: as long as it takes.
   * @default the recorder's `shutdownTimeoutMs` (20 s)
   */
  timeoutMs?: number | undefined;
}

/** How closing lets go of what is open: the recorder's part of {@link ClosingParts}. */
export type LettingGo<C> = Pick<ClosingParts<C>, 'next' | 'letGo' | 'room' | 'onRoom'>;

/** The recorder's parts that closing waits for, and how it lets go of what is open. */
export interface ClosingParts<C> {
  /**
   * The next conversation to let go of, the idlest still open; `undefined` once none is.
   * All were closed to recording at the call, at once; letting go of one takes it out.
   */
  next: () => C | undefined;
  /** Lets go of one open conversation (ends and sends it, or leaves it to a shared store). */
  letGo: (conversation: C) => void;
  /** How many more may be let go now (see `backlogRoom`); the rest wait, until the deadline. */
  room: () => number;
  /** Calls `wake` once the backlog has room again (a send settled), at once if it has. */
  onRoom: (wake: () => void) => void;
  /** The deadline passed: nothing more is awaited from the store or the service; what is held is reported. */
  expire: (reason: AbortError) => void;
  /** Resolves once every unit of work accepted so far met its fate: delivered, stored, or reported. */
  settled: () => Promise<unknown>;
  /** What `shutdown()` resolves with: the outcomes since its call. */
  report: () => DeliveryReport;
}

/**
 * Closes the recorder within `deadline` (set when `shutdown()` was called; this runs with
 * the stages, which may have had to load first): lets go of every open conversation, in
 * slices (there may be thousands), as fast as the backlog has room for them (woken as
 * their sends settle, not by a timer) and at once when the deadline passes. At the
 * deadline, requests are aborted and no store call is awaited any more; then everything
 * still held is reported, with its payload, and only after that does this resolve: a
 * program may exit right after `await shutdown()`. The process stays alive until the
 * deadline, whatever stage the conversations are in.
 *
 * @example
 * ```ts
 * const delivery = await closeAll(parts, new Deadline(20_000));
 * ```
 */
export async function closeAll<C>(parts: ClosingParts<C>, deadline: Deadline): Promise<DeliveryReport> {
  let expired = false;
  let wake: (() => void) | undefined;
  // One reaction on the deadline for the whole wave: racing it at each wait would leave
  // one on it a wait, thousands, until it passes.
  void deadline.expired.then(() => {
    expired = true;
    parts.expire(new AbortError(`shutdown() did not finish within ${deadline.timeoutMs} ms`));
    wake?.();
  });
  // Not in the caller's call: shutdown() returns at once.
  await paced(LANE.end);
  for (let conversation = parts.next(); conversation !== undefined; conversation = parts.next()) {
    while (!expired && parts.room() <= 0) {
      // Told, not handed a promise: a wave waits once for nearly every conversation.
      await new Promise<void>((resolve) => {
        wake = resolve;
        parts.onRoom(resolve);
      });
    }
    parts.letGo(conversation);
    const wait = pace(LANE.end);
    if (wait !== undefined) await wait;
  }
  // Not past the deadline by more than the work of reporting what is left.
  await parts.settled();
  deadline.clear();
  return parts.report();
}
