import type { BodyFilter } from './body-filter.js';
import type { EndpointName } from './endpoint-paths.js';
import type { ENDPOINTS } from './endpoints.js';
import { plainHeaders } from './headers.js';
import type { HttpEngine } from './http-engine.js';
import type { AcceptedResponse, DeliverRequest, EndpointParams, EndpointResult } from './http-types.js';
import type { ResolvedClientOptions } from './options.js';
import { type CallOverrides, checkRequestOptions, type RequestOptions } from './request-options.js';
import type { TransportChoice } from './transport/select.js';

export type { AcceptedResponse, DeliverRequest, EndpointParams, EndpointResult } from './http-types.js';

/**
 * The one HTTP engine of the SDK, as the client holds it: nothing of the engine is loaded
 * or made before the first request. Then `http-engine.ts` (transport, attempt loop) comes
 * in; a typed call also loads `typed-call.ts` with zod, the schemas and ky. The typed
 * client's calls go through ky; the recorder's deliveries go straight to the transport
 * (`node:http` with keep-alive on Node, `fetch` elsewhere, a `fetch` of the user's
 * always). Both share the attempt loop.
 *
 * @example
 * ```ts
 * const http = new HttpCore(resolveClientOptions({ apiKey }));
 * const { users } = await http.call('listEligibleUsers', undefined);
 * ```
 */
export class HttpCore {
  readonly #options: ResolvedClientOptions;
  readonly #choice: TransportChoice;
  /** The client's mask for the bodies of typed calls, loaded with their first one; none without one. */
  readonly #loadFilter: (() => Promise<BodyFilter>) | undefined;
  #engine: Promise<HttpEngine> | undefined;
  /** The engine once made: a delivery then goes to it without an async frame and a promise of its own. */
  #ready: HttpEngine | undefined;
  #filter: Promise<BodyFilter> | undefined;

  /**
   * `transport: 'fetch'` forces the platform's fetch where Node's would be used (tests);
   * `filter` loads what each typed call's body passes through (the client's mask).
   */
  constructor(
    options: ResolvedClientOptions,
    internals: { transport?: TransportChoice; filter?: (() => Promise<BodyFilter>) | undefined } = {},
  ) {
    this.#options = options;
    this.#loadFilter = internals.filter;
    this.#choice = internals.transport ?? 'auto';
    // Checked here, where the mistake was made; fetch's own message would quote the value.
    if (plainHeaders(options.headers) === undefined) {
      throw new TypeError('nebuly-client: `headers` has a name or value an HTTP header cannot carry');
    }
  }

  /** The engine, loaded and made at the first request. */
  #engineOf(): Promise<HttpEngine> {
    this.#engine ??= import('./http-engine.js').then(({ HttpEngine }) => (this.#ready = new HttpEngine(this.#options, this.#choice)));
    return this.#engine;
  }

  /**
   * Calls an endpoint of the service by its name: checks the request options (at once,
   * before anything loads), then `params` with the endpoint's schema (`undefined` for one
   * that takes no body, a GET), rejecting with a `ValidationError` with nothing sent;
   * sends the params as JSON through ky, and resolves with the body parsed by the
   * endpoint's response schema, or for ingestion its status and body. The request options
   * override the client's signal, time-out, retries and headers. A call to an endpoint
   * that ingests data carries an `Idempotency-Key`, the same on each retry.
   *
   * @example
   * ```ts
   * const { users } = await http.call('listEligibleUsers', undefined, { timeoutMs: 5_000 });
   * await http.call('deleteEligibleUsers', { users: ['u-1'] }, { maxRetries: 0 });
   * ```
   */
  async call<N extends EndpointName>(
    name: N,
    params: EndpointParams<(typeof ENDPOINTS)[N]>,
    options?: RequestOptions | undefined,
  ): Promise<EndpointResult<(typeof ENDPOINTS)[N]>> {
    // Plain checks, like the client's options: bad ones reject before anything loads.
    const overrides = checkRequestOptions(options);
    if (this.#loadFilter !== undefined) this.#filter ??= this.#loadFilter();
    const [engine, { typedCall }, filter] = await Promise.all([this.#engineOf(), import('./typed-call.js'), this.#filter]);
    return typedCall(engine, filter, name, params, overrides);
  }

  /**
   * `undefined` once the engine is made; until then the promise of its load (which this
   * starts), never rejecting: the recorder's outbox sends nothing before, so that the
   * deliveries waiting for it do not all go out in the turn Node's HTTP client loaded in.
   *
   * @example
   * ```ts
   * await http.ready();
   * ```
   */
  ready(): Promise<unknown> | undefined {
    if (this.#ready !== undefined) return undefined;
    // Its failure is each delivery's, reported there.
    return this.#engineOf().catch(() => undefined);
  }

  /**
   * Posts a JSON body to an ingesting endpoint for the recorder, with its idempotency
   * key, through the transport (no `Request` built on Node): retried with the client's
   * policy, any 2xx is success. Rejects with the SDK error of the last attempt.
   *
   * @example
   * ```ts
   * const { status } = await http.deliver({ path: ENDPOINT_PATHS.sendConversation.path, body, idempotencyKey: key });
   * ```
   */
  deliver(request: DeliverRequest & Pick<CallOverrides, 'timeoutMs' | 'maxRetries'>): Promise<AcceptedResponse> {
    // Every delivery but the first few finds the engine made: its call is the delivery's
    // only frame (an `await` here held a suspended frame and a promise per request).
    const engine = this.#ready;
    return engine === undefined ? this.#engineOf().then((made) => made.deliver(request)) : engine.deliver(request);
  }
}
