import { HttpCore } from './core/http.js';
import type { NebulyError } from './core/errors.js';
import type { Log } from './core/logging.js';
import type { FeedbackTokenParams } from './core/feedback-options.js';
import type { ClientOptions } from './core/options.js';
import { resolveClientOptions } from './core/resolve-options.js';
import { createSampler } from './privacy/sample.js';
import { Recorder, type ShutdownOptions } from './recorder/recorder.js';
import type { Conversation, StartConversationParams } from './recorder/conversation.js';
import { ambientContext, checkConversationTarget, type ConversationTarget } from './recorder/conversation-target.js';
import type { DeliveryReport } from './recorder/delivery-report.js';
import type { FeedbackParams, TagParams } from './recorder/late-params.js';
import type { Conversations } from './resources/conversations.js';
import type { EligibleUsers } from './resources/eligible-users.js';
import type { Interactions } from './resources/interactions.js';
import { lazyResources } from './resources/lazy-resources.js';
import type { PlatformUsers } from './resources/platform-users.js';
import type { FeedbackPage, FeedbackPageInit } from './page-feedback/page.js';
import type { RequestOptions } from './core/request-options.js';
import type { VariantsParams, VariantsResponse } from './types/variants.js';

/** @internal What integrations made without a turn need of a client: its log and its `onError`. */
export interface ClientParts {
  /** The log of `logLevel` and `logger`. */
  readonly log: Log;
  /** The client's `onError`, made safe: never throws. */
  readonly report: (error: NebulyError) => void;
}

const partsOfClients = new WeakMap<NebulyClient, ClientParts>();

/**
 * @internal A client's log and `onError`, for integrations that record without a turn
 * (the span processor), kept off the client's own surface.
 * @example
 * ```ts
 * clientParts(nebuly)?.log.info('nebuly-client: content was not captured');
 * ```
 */
export function clientParts(nebuly: NebulyClient): ClientParts | undefined {
  return partsOfClients.get(nebuly);
}

/**
 * The client of the Nebuly platform API: one method per endpoint, and a recorder that
 * sends whole conversations when they end.
 *
 * @example
 * ```ts
 * import { NebulyClient } from 'nebuly-client';
 *
 * const nebuly = new NebulyClient({ apiKey: process.env.NEBULY_API_KEY, region: 'eu' });
 * const conversation = nebuly.startConversation({ end_user: 'user-hash' });
 * const turn = conversation.interaction({ input: 'Hi' });
 * turn.llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' });
 * turn.end({ output: 'Hello!' });
 * await conversation.end();
 * ```
 */
export class NebulyClient {
  /** Interactions: `send`, `sendFeedback`, `addTags`; `list`, `export`, `get`; `delete` by filter. */
  readonly interactions: Interactions;
  /** Whole conversations in one bulk request: `send`. */
  readonly conversations: Conversations;
  /** The project's eligible users: `insert`, `update`, `delete`, `list`. */
  readonly eligibleUsers: EligibleUsers;
  /** The project's platform users: `insert`, `update`, `delete`, `list`. */
  readonly platformUsers: PlatformUsers;
  /** The base URL every request goes to, chosen from `baseUrl`, then the region. */
  readonly baseUrl: string;

  readonly #recorder: Recorder;
  /** What feedback from the page is made with, at its first use. */
  readonly #pageInit: Omit<FeedbackPageInit, 'record'>;
  #page: Promise<FeedbackPage> | undefined;
  readonly #http: HttpCore;


  /**
   * @throws TypeError when there is no API key (option or `NEBULY_API_KEY`), the region
   * is not `'us'` or `'eu'`, or an option is out of range, of the wrong type, or cannot
   * be read; the message names the option and never repeats the key.
   */
  constructor(options: ClientOptions = {}) {
    const resolved = resolveClientOptions(options);
    const { mask, onError } = resolved;
    // The mask of typed calls loads with the first one: a client without typed calls never loads it.
    const filter = mask === undefined ? undefined : async () => (await import('./privacy/filter.js')).maskingFilter(mask, onError);
    const http = new HttpCore(resolved, { filter });
    this.baseUrl = resolved.baseUrl;
    this.#http = http;
    // Loaded at their first call: a client that only records never loads them.
    ({ interactions: this.interactions, conversations: this.conversations, eligibleUsers: this.eligibleUsers, platformUsers: this.platformUsers } =
      lazyResources(http));
    this.#recorder = new Recorder({
      http,
      onError: resolved.onError,
      options: resolved.recorder,
      mask: resolved.mask,
      sampled: resolved.sampleRate >= 1 ? undefined : createSampler(resolved),
      feedbackToken: async (turn, options) => (await this.#feedbackPage()).forTurn(turn, options),
      modelPrices: resolved.modelPrices,
    });
    this.#pageInit = { secret: resolved.feedbackSecret, origins: resolved.feedbackOrigins, now: resolved.recorder.now };
    partsOfClients.set(this, { log: resolved.log, report: resolved.onError });
  }

  /**
   * Resumes the open conversation `conversation_id`, recorded so far in this process or,
   * with a shared store (`recorder.store`), in any instance; else starts it. Record each
   * exchange with `conversation.interaction()`; `conversation.end()`, from any instance,
   * or the idle time-out sends the whole conversation in one request. Cheap and
   * synchronous: nothing is read from the store here. Never throws: bad input goes to
   * `onError`.
   *
   * @example
   * ```ts
   * // In whichever instance serves this message of the chat:
   * const conversation = nebuly.conversation({ conversation_id: chatId, end_user: await hashEndUser(userId) });
   * const turn = conversation.interaction({ input: message });
   * turn.end({ output: answer });
   * await nebuly.flush(); // serverless: waitUntil(nebuly.flush())
   * ```
   */
  conversation(params: StartConversationParams & { conversation_id: string }): Conversation {
    return this.#recorder.conversation(params);
  }

  /**
   * The A/B-test variants `user` is in, for the experiments of `feature_flags`
   * (`POST /api/external/variants`): for each flag the user is in a variant of, the
   * variant (a prompt, a model or a RAG source, told apart by `kind`, with its
   * `config_params`). Ask once per user, use what the variant names, and record the flags
   * with each interaction (`feature_flag`), which ties it to the experiment.
   *
   * @example
   * ```ts
   * const { variants } = await nebuly.variants({ user: endUser, feature_flags: ['new-prompt'] });
   * const variant = variants.find((found) => found.feature_flag_name === 'new-prompt')?.variant;
   * const systemPrompt = variant?.kind === 'prompt' ? variant.prompt : DEFAULT_PROMPT;
   * const turn = nebuly.conversation({ conversation_id, end_user: endUser }).interaction({ input, feature_flag: ['new-prompt'] });
   * ```
   */
  variants(params: VariantsParams, options?: RequestOptions): Promise<VariantsResponse> {
    return this.#http.call('getVariants', params, options);
  }

  /**
   * Ends and sends the conversations of the recorder's store that have been idle for
   * `idleTimeoutMs`, whichever instance recorded them, and those a sender that died left
   * unsent. Long-running processes sweep on their own (`sweepIntervalMs`); in serverless,
   * call it from a cron route. Resolves with the report of what it sent. Never rejects.
   *
   * @example
   * ```ts
   * export async function GET() {
   *   const { delivered } = await nebuly.sweep();
   *   return Response.json({ delivered });
   * }
   * ```
   */
  sweep(): Promise<DeliveryReport> {
    return this.#recorder.sweep();
  }

  /**
   * Records the user's feedback on an interaction of the conversation `conversation_id`
   * (that of `nebuly.conversation()`), by its `turn.id`, from any instance: while the
   * conversation is open it is attached to the interaction and sent with it; once the
   * conversation was sent (within `recorder.feedbackRetentionMs`, 24 h), it goes to the
   * feedback endpoint with the interaction's input, output and end user. Never rejects:
   * what cannot be recorded goes to `onError`.
   *
   * @example
   * ```ts
   * // When the answer is shown, keep its id with the message:
   * const turn = nebuly.conversation({ conversation_id: chatId, end_user }).interaction({ input });
   * saveMessage({ chatId, interactionId: turn.id, answer });
   * // Later, in whichever instance gets the thumbs up:
   * await nebuly.feedback({ conversation_id: chatId, interaction_id: interactionId, slug: 'thumbs_up' });
   * ```
   */
  feedback(params: FeedbackParams): Promise<void> {
    return this.#recorder.feedback(params);
  }

  /**
   * Adds tags to an interaction of the conversation `conversation_id` once they are known
   * (a ticket resolved, a CSAT score), by its `turn.id`, from any instance, as
   * {@link NebulyClient.feedback} records feedback: while the conversation is open they
   * are merged into the interaction's tags and sent with it; once it was sent (within
   * `recorder.feedbackRetentionMs`, 24 h), they go to the tags endpoint with the
   * interaction's end user and `time_start` (and its input and output). A tag it already
   * has takes the new value. Never rejects: bad params (named by field) and what cannot be
   * recorded go to `onError`.
   *
   * @example
   * ```ts
   * // Once the support ticket behind the chat is closed:
   * await nebuly.tag({ conversation_id: chatId, interaction_id: interactionId, tags: { ticket: 'resolved', csat: '5' } });
   * ```
   */
  tag(params: TagParams): Promise<void> {
    return this.#recorder.tag(params);
  }

  /**
   * A token that lets a page send its user's feedback on one interaction through
   * {@link NebulyClient.handleFeedback}, without the API key: it names the conversation
   * and the interaction, expires after `ttlMs` (24 h by default; 1 s to 30 days), and is
   * signed with `feedbackSecret` (HMAC-SHA-256), so it cannot be altered or moved to
   * another interaction. Any instance with the same secret can mint it or receive it.
   * Use `turn.feedbackToken()` when the turn is in hand.
   *
   * @throws NebulyError (rejects) without a `feedbackSecret`; ValidationError naming a bad field.
   * @example
   * ```ts
   * const token = await nebuly.feedbackToken({ conversation_id: chatId, interaction_id: message.interactionId });
   * ```
   */
  async feedbackToken(params: FeedbackTokenParams): Promise<string> {
    return (await this.#feedbackPage()).token(params);
  }

  /**
   * Answers the route a page posts its user's feedback to, with the token given with the
   * answer: `{ token, slug, text?, value? }` (`value` only with `slug: 'rating'`). Mount
   * it on any route that speaks web `Request` and `Response`: a Next.js route handler,
   * Hono, a Worker, Express through an adapter (docs/recorder.md, "Feedback from the
   * page"). Answers 204 once accepted, and records the action as
   * {@link NebulyClient.feedback} does; 400 naming the bad field; 401 for a token that is
   * forged, altered, expired or signed with another secret; 403 for an origin not in
   * `feedbackOrigins` (nor the route's own); 405 for another method; 413 for a body over
   * 16 KiB. Answers CORS preflights and sets `Access-Control-Allow-Origin` only for
   * allowed origins. No answer holds the token or the secret. A repeated word (the same
   * thumb again) is recorded once per instance; a changed one (down after up, a new
   * rating) is recorded, up to four per interaction and kind.
   *
   * @throws NebulyError (rejects) without a `feedbackSecret`.
   * @example
   * ```ts
   * // app/api/feedback/route.ts (Next.js)
   * export const POST = (request: Request) => nebuly.handleFeedback(request);
   * export const OPTIONS = POST;
   * ```
   */
  async handleFeedback(request: Request): Promise<Response> {
    return (await this.#feedbackPage()).handle(request);
  }

  #feedbackPage(): Promise<FeedbackPage> {
    return (this.#page ??= import('./page-feedback/page.js').then(
      ({ FeedbackPage }) => new FeedbackPage({ ...this.#pageInit, record: (params) => this.feedback(params) }),
    ));
  }

  /**
   * Starts recording a conversation. Record each exchange with
   * `conversation.interaction()`; `conversation.end()` (or the idle time-out) sends the
   * whole conversation in one request. Never throws: bad input goes to `onError`.
   */
  startConversation(params: StartConversationParams): Conversation {
    return this.#recorder.startConversation(params);
  }

  /**
   * Runs `fn` with `target` as the ambient target: an integration created without a
   * target (`observeOpenAI(client)`, `nebulyMiddleware()`, …) records what `fn` and
   * everything it starts call into it, so one observed client serves every request and
   * user. Follows `await`s where the runtime has `AsyncLocalStorage` (Node >= 20.16, Bun,
   * Deno, workers with `nodejs_compat`); elsewhere only the synchronous part of `fn`
   * (docs/integrations.md, "Ambient context"). Returns what `fn` returns.
   *
   * @throws TypeError when `target` is not a target, naming the field.
   * @example
   * ```ts
   * const answer = await nebuly.withConversation({ endUser: userHash, conversationId: chatId }, () =>
   *   run(agent, question), // the Agents SDK's default client, observed once per process
   * );
   * ```
   */
  withConversation<R>(target: ConversationTarget, fn: () => R): R {
    checkConversationTarget(target, (value) => value instanceof NebulyClient, false);
    return ambientContext().run({ nebuly: this, target }, fn);
  }

  /**
   * Sends every conversation ended so far; resolves when each was delivered or given up,
   * with a {@link DeliveryReport} counting the conversations ended since the previous
   * flush's report. Never rejects.
   *
   * @example
   * ```ts
   * const { delivered, failed, dropped } = await nebuly.flush();
   * ```
   */
  flush(): Promise<DeliveryReport> {
    return this.#recorder.flush();
  }

  /**
   * Ends every open conversation, sends everything, and stops the recorder's timers.
   * Idempotent (every call gets the first call's report); bounded by `timeoutMs`, after
   * which what is left goes to `onError` and counts as failed. Resolves with the
   * {@link DeliveryReport} of the conversations that had not met their fate at the call,
   * those it ended included (one that settled before it is in an earlier flush's report
   * instead). Never rejects.
   *
   * @example
   * ```ts
   * const report = await nebuly.shutdown({ timeoutMs: 5_000 });
   * if (report.failed + report.dropped > 0) console.warn('not everything was delivered', report);
   * ```
   */
  shutdown(options?: ShutdownOptions): Promise<DeliveryReport> {
    return this.#recorder.shutdown(options);
  }
}

/**
 * @internal The client's log (`logLevel`, `logger`): where the integrations write their
 * capture diagnostics.
 * @example
 * ```ts
 * clientLog(nebuly).info('nebuly-client integration: …');
 * ```
 */
export function clientLog(client: NebulyClient): Log {
  return (partsOfClients.get(client) as ClientParts).log;
}
