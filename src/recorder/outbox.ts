import { ConnectionError, InternalServerError, NebulyError, RateLimitError } from '../core/errors.js';
import type { AcceptedResponse } from '../core/http.js';
import { type DeliveryReport, Tally } from './delivery-report.js';
import { DeliveryError, QueueFullError, messageOf, type UndeliveredConversation } from './errors.js';
import type { ConversationOutcome } from './outcome.js';
import { Fifo } from '../utils/fifo.js';
import { LANE, later, pace } from './worker.js';
import { startTimer } from './timers.js';
import { microtask } from '../utils/microtask.js';

/**
 * One body for an ingesting endpoint, as the recorder hands it to the client's HTTP core.
 *
 * @example
 * ```ts
 * const request: DeliveryRequest = { path: ENDPOINTS.sendConversation.path, body, idempotencyKey: claim.generation };
 * ```
 */
export interface DeliveryRequest {
  /** The endpoint's path below the base URL. */
  path: string;
  /** The JSON body in UTF-8. */
  body: Uint8Array;
  /** Sent as `Idempotency-Key`, the same on every retry. */
  idempotencyKey: string;
  /** Aborts the request and its retries (at the shutdown deadline). */
  signal?: AbortSignal | undefined;
}

/**
 * How the outbox reaches the service: the client's HTTP core, which owns
 * authentication, time-outs and the retry policy. Tests pass a fake.
 */
export interface Transport {
  deliver(request: DeliveryRequest): Promise<AcceptedResponse>;
  /**
   * While what sends is still loading (its code, Node's HTTP client), a promise of its
   * load, which also starts it; `undefined` once it is loaded. Never rejects. The outbox
   * sends nothing before, so that the requests waiting for it do not all go out in the
   * turn of the load.
   */
  ready?(): Promise<unknown> | undefined;
}

/**
 * What the outbox sends: a body, where to, under which key, and the conversation it
 * belongs to (named in errors and outcomes).
 *
 * @example
 * ```ts
 * outbox.publish({ conversationId, path: ENDPOINTS.sendConversation.path, body, idempotencyKey });
 * ```
 */
export interface Publication {
  readonly conversationId: string;
  readonly path: string;
  readonly body: Uint8Array;
  readonly idempotencyKey: string;
  /**
   * The body as text, when it was made as text and is refused before it is sent
   * ({@link Outbox.refuse}): the error's payload as it is, never encoded and decoded.
   */
  readonly payload?: string | undefined;
  /** `false` for a body that is no conversation (feedback): not counted in a `DeliveryReport`. */
  readonly counted?: boolean | undefined;
  /**
   * What this process keeps of the conversation elsewhere until its outcome (a store in
   * its memory keeps the claimed interactions), in bytes: counted against
   * `maxQueuedBytes` with the body.
   */
  readonly heldElsewhere?: number | undefined;
}

/**
 * What a queued conversation costs besides its bytes: the delivery record, the typed
 * array and its backing store, the promises, closures and frames of its send, its claim
 * and its ids. Counted against `maxQueuedBytes`, so that many small conversations are
 * bounded as well as few large ones. Measured, not guessed: a heap snapshot of 933 tiny
 * conversations queued against a service that hangs held 5.8 kB each (13 promises, 14
 * closures, 20 strings); test/recorder/heap-drain.test.ts and burst-heap.test.ts check
 * the heap against the bound.
 */
export const QUEUED_ENTRY_OVERHEAD_BYTES = 6144;

const decoder = /* @__PURE__ */ new TextDecoder();

/** The fewest sends in flight the limit falls to: a quarter of `maxConcurrentSends`, at least 1. */
function floorOf(maxConcurrentSends: number): number {
  return Math.max(1, Math.ceil(maxConcurrentSends / 4));
}

/** Whether a send failed for the service's sake (it is slow, overloaded or unreachable), not for the body's. */
function strains(error: NebulyError): boolean {
  return error instanceof ConnectionError || error instanceof RateLimitError || error instanceof InternalServerError;
}

/** What the {@link Outbox} needs. */
export interface OutboxOptions {
  transport: Transport;
  report: (error: NebulyError) => void;
  maxConcurrentSends: number;
  maxQueuedConversations: number;
  maxQueuedBytes: number;
  /** Called whenever the last conversation waiting to be sent has settled. */
  drained?: (() => void) | undefined;
}

/** One conversation on its way: queued, then in flight, then settled once. */
interface Delivery {
  /** What was published, held as it is: spreading it into each delivery copied it. */
  readonly publication: Publication;
  /** What it counts against `maxQueuedBytes`. */
  readonly bytes: number;
  readonly done: Promise<ConversationOutcome>;
  readonly resolve: (outcome: ConversationOutcome) => void;
  settled: boolean;
  /** In the queue, or taken from it and not settled: its bytes count against the bound. */
  held: boolean;
}

/**
 * What an error keeps of a body it could not deliver: its JSON as text, decoded only then,
 * and the key its sends carried (or would have), so that a replay under it is stored once.
 */
function undelivered({ publication: { conversationId, body, payload, idempotencyKey } }: Delivery): UndeliveredConversation {
  return { conversationId, payload: payload ?? decoder.decode(body), idempotencyKey };
}

function toNebulyError(error: unknown): NebulyError {
  if (error instanceof NebulyError) return error;
  return new ConnectionError(messageOf(error), { cause: error });
}

/**
 * The recorder's outbox: every unit of background work (an ended interaction to store, an
 * end or a sweep's send, feedback or tags after their turn) is numbered in its ledger when
 * it is accepted ({@link Outbox.accept}) and struck off once it met its fate, so that
 * `flush()` and `shutdown()` wait for one number, not for each stage.
 *
 * It sends the bodies the stages hand it: at once (on the next microtask), at most its
 * limit of sends in flight at a time, the rest waiting in its queue. Each
 * request goes through the client's HTTP core, so it is retried by the client's policy;
 * what still fails goes to `onError` as a {@link DeliveryError} with its payload and key.
 * At the shutdown deadline it gives up everything it holds ({@link Outbox.abandon}).
 *
 * It also reports every error about an ended conversation, those found before it came
 * here included, and only once the conversation is registered (queued, or refused): an
 * `onError` handler that calls `flush()` or `shutdown()` then waits for it.
 */
export class Outbox {
  readonly #options: OutboxOptions;
  /** Passes at shutdown's deadline ({@link Outbox.abandon}): from then on no stage waits for the store or the service. */
  readonly cutoff = new Cutoff();
  /** Waiting for a send slot, first come first served. */
  readonly #queue = new Fifo<Delivery>();
  /**
   * What everything accepted and not yet delivered or reported holds: the deliveries queued
   * and in flight, and the ended interactions not yet in the store ({@link Outbox.admit}).
   */
  #bytes = 0;
  /** In flight: sent, not yet settled. */
  readonly #inFlight = new Set<Delivery>();
  /**
   * Aborts every request in flight and its retries, at the shutdown deadline; nothing is
   * sent after. One for all: a controller per request cost about 7 µs of CPU on Node 20,
   * a quarter of what the request itself costs, and the HTTP core watches a shared
   * signal with one listener (core/abort-watch.ts).
   */
  readonly #abort = new AbortController();
  /** Queued and in flight, or refused and not yet reported. */
  readonly #pending = new Set<Delivery>();
  #pumpScheduled = false;
  /** The pump waits for a later slice, or for the transport to load ({@link Outbox.#pump}). */
  #pumpWaiting = false;
  /** Every unit of work accepted, by number, and which met its fate. */
  readonly #ledger = new Ledger();
  /**
   * How many sends may be in flight now: between a floor and `maxConcurrentSends`. It
   * falls by a quarter when a send fails for the service's sake (time-out, 429, 5xx, the
   * connection), so that a struggling service is not held to the full limit, and grows
   * back by one for each delivery while sends wait for a place: delivery keeps
   * pace with recording whenever the service does.
   */
  #limit: number;
  /**
   * The outcomes of conversations settled, or dropped, that no flush has claimed: the
   * next flush's report starts from these. Counters only, so that a client that never
   * flushes holds nothing for it.
   */
  #unclaimed = new Tally();
  /** What `shutdown()` counts: every outcome since its call (see {@link Outbox.beginFinal}). */
  #final: Tally | undefined;
  /** Set when shutdown ran out of time: nothing more is sent. */
  #abandoned: NebulyError | undefined;
  /** The burst of queue refusals not yet reported. */
  #burst: { limit: QueueFullError['limit']; refused: Delivery[]; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#limit = options.maxConcurrentSends;
  }

  /** A unit of work is accepted: its number in the ledger. {@link Outbox.finish} it once it met its fate. */
  accept(): number {
    return this.#ledger.begin();
  }

  /** The unit `number` met its fate: delivered, stored, or reported. */
  finish(number: number): void {
    this.#ledger.finish(number);
  }

  /** Numbers `work` as a unit, struck off once it settles. */
  track(work: Promise<unknown>): void {
    const number = this.accept();
    void work.finally(() => this.finish(number));
  }

  /**
   * Resolves once every unit accepted before the call met its fate; what is accepted
   * meanwhile is not waited for, so a flush under load still resolves.
   */
  settled(): Promise<void> {
    return this.#ledger.whenDone();
  }

  /** How many sends may be in flight now (see the class). */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  /** How many conversations are queued, in flight, or refused and not yet reported. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Queues a conversation's JSON for sending. Resolves with its outcome; never rejects.
   * A conversation the queue cannot take goes to `onError` in a {@link QueueFullError},
   * one for every conversation refused in the same burst. `errors` are what was found
   * about it on the way here, reported before anything the outbox finds.
   */
  publish(publication: Publication, errors: readonly NebulyError[] = []): Promise<ConversationOutcome> {
    const { conversationId } = publication;
    let resolve!: (outcome: ConversationOutcome) => void;
    const done = new Promise<ConversationOutcome>((settle) => {
      resolve = settle;
    });
    const bytes = publication.body.byteLength + (publication.heldElsewhere ?? 0) + QUEUED_ENTRY_OVERHEAD_BYTES;
    const delivery: Delivery = { publication, bytes, done, resolve, settled: false, held: false };

    let refusal: NebulyError | undefined;
    if (this.#abandoned !== undefined) {
      refusal = new DeliveryError(undelivered(delivery), this.#abandoned);
      this.#settle(delivery, { status: 'failed', conversationId, error: refusal });
    } else {
      const limit = this.#refusedBy(bytes);
      this.#pending.add(delivery);
      delivery.held = limit === undefined;
      if (limit === undefined) {
        this.#queue.push(delivery);
        this.#bytes += bytes;
        this.#schedulePump();
      } else {
        this.#refuse(delivery, limit);
      }
    }
    for (const error of errors) this.#options.report(error);
    if (refusal !== undefined) this.#options.report(refusal);
    return done;
  }

  /**
   * Gives up a conversation before sending it (nothing valid in it, or it could not be
   * serialized): reports `errors`, and resolves `dropped` with `reason`.
   */
  drop(conversationId: string, reason: NebulyError, errors: readonly NebulyError[]): Promise<ConversationOutcome> {
    this.count('dropped');
    for (const error of errors) this.#options.report(error);
    return Promise.resolve({ status: 'dropped', conversationId, error: reason });
  }

  /**
   * Counts `bytes` of work taken before it has a body (an ended interaction on its way to
   * a shared store) against `maxQueuedBytes`: `false` when they would pass it, and the
   * caller refuses the work ({@link Outbox.refuse}). {@link Outbox.release} them once the
   * work is done.
   */
  admit(bytes: number): boolean {
    if (this.#bytes + bytes > this.#options.maxQueuedBytes) return false;
    this.#bytes += bytes;
    return true;
  }

  /** Whether `bytes` more would fit `maxQueuedBytes` now (nothing is counted). */
  hasRoom(bytes: number): boolean {
    return this.#bytes + bytes <= this.#options.maxQueuedBytes;
  }

  /** Counts `bytes` against `maxQueuedBytes` even past it: work already in memory that cannot be refused now. {@link Outbox.release} them once done. */
  hold(bytes: number): void {
    this.#bytes += bytes;
  }

  /** What {@link Outbox.admit} or {@link Outbox.hold} counted is no longer held. */
  release(bytes: number): void {
    this.#bytes -= bytes;
  }

  /**
   * Refuses a body at once for `maxQueuedBytes`, with the other refusals of its burst in
   * one {@link QueueFullError}; resolves `dropped` with that error. For work that did not
   * fit ({@link Outbox.admit}), reported with its payload and key.
   */
  refuse(publication: Publication, errors: readonly NebulyError[] = []): Promise<ConversationOutcome> {
    let resolve!: (outcome: ConversationOutcome) => void;
    const done = new Promise<ConversationOutcome>((settle) => {
      resolve = settle;
    });
    const delivery: Delivery = { publication, bytes: 0, done, resolve, settled: false, held: false };
    this.#pending.add(delivery);
    this.#refuse(delivery, 'maxQueuedBytes');
    for (const error of errors) this.#options.report(error);
    return done;
  }

  /** The bound that `bytes` more would pass, if any. */
  #refusedBy(bytes: number): QueueFullError['limit'] | undefined {
    if (this.#queue.length >= this.#options.maxQueuedConversations) return 'maxQueuedConversations';
    if (this.#bytes + bytes > this.#options.maxQueuedBytes) return 'maxQueuedBytes';
    return undefined;
  }

  /**
   * Holds a refusal until the end of its burst: every refusal until the next macrotask (a
   * loop of `end()` calls, `shutdown()` ending what is open, a wave of idle time-outs) is
   * reported together, in one {@link QueueFullError}.
   */
  #refuse(delivery: Delivery, limit: QueueFullError['limit']): void {
    if (this.#burst === undefined) {
      // Ref'd, so that a process exiting right after the burst still reports it; it
      // fires on the next turn of the event loop.
      this.#burst = { limit, refused: [], timer: startTimer(() => this.#endBurst(), 0, { keepAlive: true }) };
    }
    this.#burst.refused.push(delivery);
  }

  /** Reports the current burst of refusals now, if there is one. */
  #endBurst(): void {
    const burst = this.#burst;
    if (burst === undefined) return;
    this.#burst = undefined;
    clearTimeout(burst.timer);
    this.#reportRefused(burst.limit, burst.refused);
  }

  /** Reports the conversations refused in one burst together; each stays pending until then, so that `flush()` waits for the report. */
  #reportRefused(limit: QueueFullError['limit'], deliveries: Delivery[]): void {
    const bound = limit === 'maxQueuedConversations' ? this.#options.maxQueuedConversations : this.#options.maxQueuedBytes;
    const error = new QueueFullError(deliveries.map(undelivered), limit, bound);
    for (const delivery of deliveries) this.#settle(delivery, { status: 'dropped', conversationId: delivery.publication.conversationId, error });
    this.#options.report(error);
  }

  /**
   * The report of the outcomes settled since the previous report: each conversation is
   * counted once.
   */
  report(): DeliveryReport {
    const tally = this.#unclaimed;
    this.#unclaimed = new Tally();
    return tally.report();
  }

  /**
   * From now on, every outcome is counted for the {@link Outbox.finalReport} too:
   * `shutdown()` counts exactly what had not met its fate at its call. Once.
   */
  beginFinal(): void {
    this.#final ??= new Tally();
  }

  /** The outcomes counted since {@link Outbox.beginFinal}. */
  finalReport(): DeliveryReport {
    return (this.#final ?? new Tally()).report();
  }

  /** Counts an outcome found before anything was published (the store could not be read, or lost it). */
  count(status: ConversationOutcome['status']): void {
    this.#unclaimed.add(status);
    this.#final?.add(status);
  }

  /**
   * `shutdown()`'s deadline passed: the requests still running are aborted, nothing more
   * is sent, and every conversation not delivered, those published later included, goes
   * to `onError` at once as a {@link DeliveryError} with its payload and key.
   */
  abandon(reason: NebulyError): void {
    if (this.#abandoned !== undefined) return;
    this.#abandon(reason);
  }

  #abandon(reason: NebulyError): void {
    this.cutoff.pass(reason);
    this.#abandoned = reason;
    this.#endBurst();
    const inFlight = Array.from(this.#inFlight);
    this.#abort.abort(reason);
    for (const delivery of this.#queue.shiftAll()) this.#fail(delivery, reason);
    for (const delivery of inFlight) this.#fail(delivery, reason);
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    // A microtask, not a timer: the conversation leaves as soon as the caller's
    // synchronous work is done, and conversations ended together queue together.
    microtask(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /**
   * Starts sends while there are places, one paced unit each: a request costs the host
   * ~0.1 ms of CPU (most of it Node's, writing it on the next tick), and 32 started
   * together held its loop for several ms. Nothing goes out before the transport has
   * loaded, nor in the turn it loaded in.
   */
  #pump(resumed = false): void {
    if (this.#pumpWaiting && !resumed) return;
    this.#pumpWaiting = false;
    // Resumed by its slice: its first send is the unit it waited for.
    let paced = resumed;
    while (this.#inFlight.size < this.limit && this.#abandoned === undefined && this.#queue.length > 0) {
      const loading = this.#options.transport.ready?.();
      const wait = loading !== undefined ? loading.then(sendLater, sendLater) : paced ? undefined : pace(LANE.send);
      if (wait !== undefined) {
        this.#pumpWaiting = true;
        void wait.then(() => this.#pump(true));
        return;
      }
      paced = false;
      const delivery = this.#queue.shift() as Delivery;
      if (!delivery.settled) this.#send(delivery);
    }
  }

  #send(delivery: Delivery): void {
    this.#inFlight.add(delivery);
    let sent: Promise<AcceptedResponse>;
    try {
      sent = this.#options.transport.deliver({
        path: delivery.publication.path,
        body: delivery.publication.body,
        idempotencyKey: delivery.publication.idempotencyKey,
        signal: this.#abort.signal,
      });
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      () => this.#paced(delivery, undefined),
      (error: unknown) => this.#paced(delivery, toNebulyError(error)),
    );
  }

  /**
   * What follows a response, a paced unit: the conversation's outcome (and everything
   * its promise runs: the sender tells the store, the next conversation is built) and
   * the next send. The responses that arrive together (up to `maxConcurrentSends` in one
   * poll of the host's loop) each cost only Node's reading of them then; the rest goes
   * on in slices. A fetch that answers at once (a test double, MSW) settles every send
   * in microtasks: these wait for a later slice too once this one is over.
   */
  #paced(delivery: Delivery, failure: NebulyError | undefined): void {
    const wait = pace(LANE.send);
    if (wait === undefined) this.#sent(delivery, failure);
    else void wait.then(() => this.#sent(delivery, failure));
  }

  #sent(delivery: Delivery, failure: NebulyError | undefined): void {
    if (failure === undefined) {
      // One more place for each delivery while sends wait for one: back to the full limit
      // soon after the service recovers (npm run soak delivered half as much when it
      // grew by one a round of deliveries).
      if (this.#queue.length > 0) this.#limit = Math.min(this.#options.maxConcurrentSends, this.#limit + 1);
      this.#settle(delivery, { status: 'delivered', conversationId: delivery.publication.conversationId });
    } else {
      if (strains(failure)) this.#limit = Math.max(floorOf(this.#options.maxConcurrentSends), this.#limit * 0.75);
      this.#fail(delivery, failure);
    }
    this.#inFlight.delete(delivery);
    this.#pump();
  }

  #fail(delivery: Delivery, cause: NebulyError): void {
    if (delivery.settled) return;
    const error = new DeliveryError(undelivered(delivery), cause);
    this.#settle(delivery, { status: 'failed', conversationId: delivery.publication.conversationId, error });
    this.#options.report(error);
  }

  #settle(delivery: Delivery, outcome: ConversationOutcome): void {
    if (delivery.settled) return;
    delivery.settled = true;
    if (delivery.held) this.#bytes -= delivery.bytes;
    if (delivery.publication.counted !== false) {
      this.#unclaimed.add(outcome.status);
      this.#final?.add(outcome.status);
    }
    this.#pending.delete(delivery);
    delivery.resolve(outcome);
    if (this.#pending.size === 0) this.#options.drained?.();
  }
}

/** Waits for a later slice: the first sends do not share the turn their transport loaded in. */
function sendLater(): Promise<void> {
  return later(LANE.send);
}

/** What {@link Cutoff.race} answers when the cutoff passed before the work settled. */
export const CUT: unique symbol = Symbol('cut');

/**
 * The moment `shutdown()`'s deadline passes: from then on the recorder waits for no
 * store and no service. What it still holds is reported, with its payload, before
 * `shutdown()` resolves, so that a program may exit right after it.
 *
 * @example
 * ```ts
 * const cutoff = new Cutoff();
 * const claimed = await cutoff.race(store.claim(key, now, leaseMs));
 * if (claimed === CUT) report(new NebulyError(`not sent: ${cutoff.reason?.message}`));
 * ```
 */
export class Cutoff {
  /** Why it passed: set once it has. */
  reason: Error | undefined;
  /** Resolves once it passed. */
  readonly reached: Promise<typeof CUT>;
  #pass!: () => void;
  /**
   * The races not settled, each told when it passes: a race settled before is dropped
   * from here, not left as a reaction on `reached` (that was 312 bytes a conversation
   * until shutdown, in a server that never shuts down).
   */
  readonly #racing = new Set<() => void>();

  constructor() {
    this.reached = new Promise((resolve) => {
      this.#pass = () => resolve(CUT);
    });
  }

  get passed(): boolean {
    return this.reason !== undefined;
  }

  /** @internal How many races wait for their work (for tests). */
  get racing(): number {
    return this.#racing.size;
  }

  /** The deadline passed, for `reason`; once. */
  pass(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.#pass();
    const racing = Array.from(this.#racing);
    this.#racing.clear();
    for (const cut of racing) cut();
  }

  /** `work`'s value, or {@link CUT} once the cutoff passes first (at once when it has): a hung store call no longer holds shutdown. */
  race<T>(work: PromiseLike<T>): Promise<T | typeof CUT> {
    // What the work does once it is no longer waited for is of no interest: not unhandled.
    const settled = Promise.resolve(work);
    if (this.reason !== undefined) {
      settled.catch(() => undefined);
      return Promise.resolve(CUT);
    }
    return new Promise<T | typeof CUT>((resolve, reject) => {
      const cut = (): void => {
        settled.catch(() => undefined);
        resolve(CUT);
      };
      this.#racing.add(cut);
      settled.then(
        (value) => {
          this.#racing.delete(cut);
          resolve(value);
        },
        (error: unknown) => {
          this.#racing.delete(cut);
          reject(error);
        },
      );
    });
  }
}

/**
 * Units of work and which of them met their fate, in O(1) each and in memory that grows
 * with the waits, not with the units: waiting for "everything accepted before now" needs
 * no promise per unit. A unit's number is its generation: the units begun between two
 * waits share one, and a generation is counted down as its units finish, in whatever
 * order (a send that hangs while thousands after it are refused keeps one count, not a
 * mark for each of them).
 *
 * @example
 * ```ts
 * const ledger = new Ledger();
 * const unit = ledger.begin();
 * const done = ledger.whenDone(); // resolves once `unit` is over
 * ledger.finish(unit);
 * ```
 */
export class Ledger {
  /** The generation units begun now belong to. */
  #generation = 0;
  /** Units of the current generation not over. */
  #current = 0;
  /** Units not over of each earlier generation that has any, oldest first (a Map keeps the order of insertion). */
  readonly #earlier = new Map<number, number>();
  /** Waits, each for every generation up to its target, in the order of their targets. */
  #waits: { target: number; resolve: () => void }[] = [];
  /** Units begun and not over. */
  #count = 0;

  /** Begins a unit: its number, to {@link Ledger.finish} it with. */
  begin(): number {
    this.#current += 1;
    this.#count += 1;
    return this.#generation;
  }

  /** Marks `unit` over, and resolves the waits it was the last unit of. */
  finish(unit: number): void {
    this.#count -= 1;
    if (unit === this.#generation) {
      this.#current -= 1;
      return;
    }
    const left = (this.#earlier.get(unit) as number) - 1;
    if (left > 0) {
      this.#earlier.set(unit, left);
      return;
    }
    this.#earlier.delete(unit);
    // Every generation below the oldest still open is over.
    let oldest = this.#generation;
    for (const generation of this.#earlier.keys()) {
      oldest = generation;
      break;
    }
    let woken = 0;
    while (woken < this.#waits.length && (this.#waits[woken] as { target: number }).target < oldest) {
      (this.#waits[woken] as { resolve: () => void }).resolve();
      woken += 1;
    }
    if (woken > 0) this.#waits = this.#waits.slice(woken);
  }

  /** How many units are begun and not over. */
  get count(): number {
    return this.#count;
  }

  /** Resolves once every unit begun before the call is over. */
  whenDone(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    // The units begun so far become a generation of their own, waited for.
    const target = this.#generation;
    if (this.#current > 0) this.#earlier.set(target, this.#current);
    this.#current = 0;
    this.#generation += 1;
    return new Promise((resolve) => this.#waits.push({ target, resolve }));
  }
}
