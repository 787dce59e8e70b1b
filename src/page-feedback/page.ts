import { NebulyError } from '../core/nebuly-error.js';
import type { FeedbackTokenMinter, FeedbackTokenParams } from '../core/feedback-options.js';
import { boundedText } from './bounded-body.js';
import { type FeedbackBody, readBody } from './body.js';
import { ALLOWED_METHODS, corsHeaders, originAllowed } from './cors.js';
import { Repeats } from './repeats.js';
import { noFeedbackSecret, tokenClaims } from './token-params.js';
import { FeedbackTokens } from './tokens.js';

/** The largest body taken, in bytes: a token, a slug and a comment fit in far less. */
export const MAX_BODY_BYTES = 16 * 1024;

/** What the handler records an accepted action with: `nebuly.feedback()`. */
export type RecordFeedback = (params: {
  conversation_id: string;
  interaction_id: string;
  slug: FeedbackBody['slug'];
  text?: string | undefined;
  value?: number | undefined;
}) => Promise<void>;

/** What {@link FeedbackPage} is made with: the client's options and its `feedback()`. */
export interface FeedbackPageInit {
  /** `undefined` when the client has none: minting and handling then reject, naming the option. */
  secret: string | undefined;
  origins: readonly string[];
  record: RecordFeedback;
  now: () => number;
}

/** An answer without a body: 204, 405, 413, a preflight. */
function empty(status: number, headers: Headers): Response {
  return new Response(null, { status, headers });
}

/** An answer saying what is wrong, in words that never hold the token or the secret. */
function refusal(status: number, error: string, headers: Headers): Response {
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ error }), { status, headers });
}

/**
 * Feedback from the page: mints the tokens that go out with answers, and answers the
 * route the page posts them back to, recording what it accepts through
 * `nebuly.feedback()`. Made by the client at the first `feedbackToken()` or
 * `handleFeedback()`.
 *
 * @example
 * ```ts
 * const page = new FeedbackPage({ secret, origins: [], record: (params) => nebuly.feedback(params), now: Date.now });
 * const token = await page.token({ conversation_id: 'chat-1', interaction_id: turnId });
 * const response = await page.handle(request);
 * ```
 */
export class FeedbackPage {
  readonly #tokens: FeedbackTokens | undefined;
  readonly #origins: readonly string[];
  readonly #record: RecordFeedback;
  readonly #now: () => number;
  readonly #repeats = new Repeats();

  constructor(init: FeedbackPageInit) {
    this.#tokens = init.secret === undefined ? undefined : new FeedbackTokens(init.secret);
    this.#origins = init.origins;
    this.#record = init.record;
    this.#now = init.now;
  }

  /**
   * A token for the interaction of `params`; `call` names the method in errors.
   * @throws NebulyError without a `feedbackSecret`; ValidationError naming a bad field.
   */
  async token(params: FeedbackTokenParams, call = 'nebuly.feedbackToken()'): Promise<string> {
    if (this.#tokens === undefined) throw noFeedbackSecret(call);
    return this.#tokens.mint(tokenClaims(params, this.#now()));
  }

  /** `turn.feedbackToken()`'s token. */
  async forTurn(...[turn, options]: Parameters<FeedbackTokenMinter>): Promise<string> {
    if (!turn.resumable) {
      throw new NebulyError(
        'nebuly-client: turn.feedbackToken() needs a conversation of `nebuly.conversation({ conversation_id })`; feedback cannot find one of `startConversation()`.',
      );
    }
    let ttlMs: unknown;
    try {
      ttlMs = options?.ttlMs;
    } catch {
      ttlMs = Number.NaN; // a getter that throws: the check below names `ttlMs`
    }
    return this.token({ conversation_id: turn.conversationId, interaction_id: turn.interactionId, ttlMs: ttlMs as number }, 'turn.feedbackToken()');
  }

  /**
   * The answer to one request of the feedback route: 204 once an action is accepted (or
   * absorbed as a repeat), 400 naming the bad field, 401 for a token that is not valid
   * or expired, 403 for an origin not allowed, 405, 413; CORS per `feedbackOrigins`.
   * @throws NebulyError without a `feedbackSecret`: the route cannot work, and says why.
   */
  async handle(request: Request): Promise<Response> {
    const tokens = this.#tokens;
    if (tokens === undefined) throw noFeedbackSecret('nebuly.handleFeedback()');
    const origin = request.headers.get('origin');
    const allowed = originAllowed(origin, request.url, this.#origins);
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') return empty(204, corsHeaders(origin, allowed, true));
    const headers = corsHeaders(origin, allowed, false);
    if (method !== 'POST') {
      headers.set('allow', ALLOWED_METHODS);
      return refusal(405, 'use POST', headers);
    }
    // A page the route does not allow records nothing, whether or not its browser would show it the answer.
    if (!allowed) return refusal(403, 'this origin may not post feedback here (feedbackOrigins)', headers);
    const text = await boundedText(request, MAX_BODY_BYTES);
    if (text === undefined) return refusal(413, `the body is larger than ${MAX_BODY_BYTES} bytes`, headers);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return refusal(400, 'the body must be JSON: { token, slug, text?, value? }', headers);
    }
    const body = readBody(parsed);
    if ('problem' in body) return refusal(400, body.problem, headers);
    const now = this.#now();
    const verified = await tokens.verify(body.token, now);
    if (!verified.ok) return refusal(401, verified.reason === 'expired' ? 'the feedback token has expired' : 'the feedback token is not valid', headers);
    const { claims } = verified;
    const action = { slug: body.slug, ...(body.text === undefined ? {} : { text: body.text }), ...(body.value === undefined ? {} : { value: body.value }) };
    if (this.#repeats.admit(claims, action, claims.expiresAtSeconds * 1000, now)) {
      await this.#record({ conversation_id: claims.conversationId, interaction_id: claims.interactionId, ...action });
    }
    return empty(204, headers);
  }
}
