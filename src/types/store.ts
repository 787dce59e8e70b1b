import type { ConversationInteraction } from './conversations.js';
import type { ConversationFeedbackAction } from './feedback.js';

/**
 * A value now, or later: a store backed by memory answers at once, one backed by a
 * server answers with a promise. The recorder awaits either, off the caller's path.
 *
 * @example
 * ```ts
 * const answer: MaybePromise<number> = Promise.resolve(1);
 * ```
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * One ended interaction as a store keeps it: its id (`turn.id`) and its wire form, checked
 * and masked, with the conversation's tags already merged into its own. JSON-safe: a
 * store that serializes it gets back an equal object.
 *
 * @example
 * ```ts
 * const stored: StoredInteraction = { id: turn.id, interaction: { input: 'Hi', output: 'Hello', time_start, time_end, trace: [] } };
 * ```
 */
export interface StoredInteraction {
  readonly id: string;
  readonly interaction: ConversationInteraction;
  /**
   * Orders interactions that started in the same millisecond in the same process: a
   * counter of the process that recorded them, taken when each started.
   */
  readonly order?: number | undefined;
  /**
   * Which process recorded it (a random id per process): `order` compares only
   * interactions of the same one; others of the same millisecond keep the store's order.
   */
  readonly origin?: string | undefined;
}

/**
 * An open conversation taken by one sender, for at most its lease: no other claim gets
 * it before the lease ends, and interactions appended to the same conversation id after
 * the claim start the next conversation of that id (a new `generation`).
 *
 * @example
 * ```ts
 * const claim = await store.claim('chat-42', Date.now(), 300_000);
 * if (claim !== undefined) await send(claim.interactions, { idempotencyKey: claim.generation });
 * ```
 */
export interface ConversationClaim {
  readonly conversationId: string;
  /**
   * Which conversation of that id this is: made when its first interaction was stored,
   * the same on every claim of it. The recorder sends it as the `Idempotency-Key`, so a
   * conversation sent twice (a sender that died mid-send) is stored once.
   */
  readonly generation: string;
  /** Proves the lease: {@link ConversationStore.complete} and `release` take only the current one. */
  readonly token: string;
  readonly endUser: string;
  /** In the order they were stored; the recorder orders them by `time_start`. */
  readonly interactions: readonly StoredInteraction[];
  /** When it last saw an interaction stored or something attached, ms since the epoch. */
  readonly lastActivityAt: number;
}

/**
 * What a store keeps of an interaction after its conversation was sent, for feedback and
 * tags that arrive later: the service links feedback by end user, input and output, and
 * tags by end user and `time_start` (with input and output to tell apart two of the same
 * millisecond).
 *
 * @example
 * ```ts
 * const sent = await store.sent('chat-42', interactionId, Date.now());
 * if (sent) await nebuly.interactions.addTags({ tags, metadata: { end_user: sent.endUser, time_start: sent.timeStart } });
 * ```
 */
export interface SentInteraction {
  readonly endUser: string;
  readonly input: string;
  readonly output: string;
  /** The interaction's `time_start`, ISO 8601. */
  readonly timeStart: string;
  /** The interaction's `time_end`, ISO 8601. */
  readonly timeEnd: string;
}

/**
 * What arrives for an interaction after it ended, by its id (`nebuly.feedback()`,
 * `nebuly.tag()`): a feedback action, appended to its `feedback_actions`, or tags, merged
 * over its own (a tag of the same name takes the later value).
 *
 * @example
 * ```ts
 * const attached = await store.attach('chat-42', turnId, { kind: 'tags', tags: { csat: '5' } }, Date.now());
 * ```
 */
export type Attachment =
  | { readonly kind: 'feedback'; readonly action: ConversationFeedbackAction }
  | { readonly kind: 'tags'; readonly tags: Readonly<Record<string, string>> };

/**
 * Where the recorder keeps open conversations between the moment an interaction ends and
 * the moment its conversation is sent: `memoryStore()` (the default: this process only) or
 * a shared one (`redisStore` from `nebuly-client/redis`), which lets the turns of one
 * conversation be recorded by several instances and survive a crash.
 *
 * Write one for another engine by implementing these methods with the semantics their
 * docs give; `test/store/store-contract.ts` in the repository is the suite a store must
 * pass. Every method may answer at once or with a promise, and is called off the caller's
 * path. Times are ms since the epoch, from the recorder's clock, passed in so that a store
 * needs none of its own.
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({ recorder: { store: memoryStore() } });
 * ```
 */
export interface ConversationStore {
  /**
   * `true` when the conversations outlive this process (another instance can resume,
   * end or sweep them): `shutdown()` then leaves open conversations in the store instead
   * of ending them. `false` for a store in this process's memory.
   */
  readonly shared: boolean;

  /**
   * Adds ended interactions to the open conversation `conversationId`, creating it (with
   * `endUser`, and a new generation) when none is open under that id, and marks it active
   * at `now`. An empty `interactions` only marks activity (and creates nothing).
   */
  append(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number): MaybePromise<void>;

  /**
   * Attaches feedback or tags to a stored interaction of the open conversation, and marks
   * it active: a claim then gives the interaction with every attachment applied in the
   * order attached (see {@link Attachment}). `false` when no open conversation of that id
   * holds that interaction.
   */
  attach(conversationId: string, interactionId: string, attachment: Attachment, now: number): MaybePromise<boolean>;

  /**
   * Takes the open conversation `conversationId` for sending, with a lease until
   * `now + leaseMs`; `undefined` when none is open under that id (none was stored, or
   * another sender claimed it). A claimed one whose lease expired is taken by
   * {@link ConversationStore.claimIdle}, not here.
   */
  claim(conversationId: string, now: number, leaseMs: number): MaybePromise<ConversationClaim | undefined>;

  /**
   * Takes at most `limit` conversations, idlest first: open ones whose last activity is
   * at or before `idleBefore`, and claimed ones whose lease has expired (their sender
   * died or gave up). `idleBefore: Infinity` takes any open one.
   */
  claimIdle(idleBefore: number, now: number, leaseMs: number, limit: number): MaybePromise<ConversationClaim[]>;

  /**
   * The claimed conversation was sent (or given up for good): removes it, keeping what
   * {@link ConversationStore.sent} answers of each interaction until `retainUntil`. A
   * claim whose lease was taken over meanwhile changes nothing.
   */
  complete(claim: ConversationClaim, retainUntil: number): MaybePromise<void>;

  /**
   * Keeps what {@link ConversationStore.sent} answers of interactions sent without going
   * through the store (`delivery: 'interaction'` sends each as it ends), until
   * `retainUntil`, as {@link ConversationStore.complete} keeps those of a conversation:
   * so that feedback and tags can reach them from another instance.
   */
  keep(conversationId: string, endUser: string, interactions: readonly StoredInteraction[], now: number, retainUntil: number): MaybePromise<void>;

  /** Ends the lease now, so that the conversation can be claimed again (by a later sweep). */
  release(claim: ConversationClaim): MaybePromise<void>;

  /** What was kept of an interaction of a sent conversation (for attachments that come later); `undefined` when nothing is (any more). */
  sent(conversationId: string, interactionId: string, now: number): MaybePromise<SentInteraction | undefined>;

  /** How many conversations are open (claimed ones not counted), when the store can tell cheaply. */
  openCount?(): number;

  /** The earliest last activity of an open conversation, for the recorder's one idle timer; `undefined` when none is open. */
  earliestActivity?(): number | undefined;
}
