import { withoutMedia } from './media.js';
import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { toIssues } from '../schemas/issues.js';
import type { BodyFilter } from './body-filter.js';
import type { EndpointName } from './endpoint-paths.js';
import { type Endpoint, ENDPOINTS } from './endpoints.js';
import { UnexpectedResponseError } from './errors.js';
import type { HttpEngine } from './http-engine.js';
import type { EndpointParams, EndpointResult } from './http-types.js';
import { withinTimeout } from './attempt.js';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from './idempotency.js';
import { loadKy } from './ky.js';
import type { CallOverrides } from './request-options.js';
import { requestTarget } from './request-target.js';
import { parseBody } from './response.js';
import { wireResponseOf } from './transport/fetch.js';
import { parseOrThrow, readOrThrow } from './validate.js';
import { exportRangeSchema } from '../schemas/reading.js';

/** Each engine's ky instance: its base URL, headers and transport, made at its first typed call. */
const kyOfEngine = new WeakMap<HttpEngine, KyInstance>();

async function kyFor(engine: HttpEngine): Promise<KyInstance> {
  let ky = kyOfEngine.get(engine);
  if (ky === undefined) {
    ky = (await loadKy()).create({
      prefixUrl: engine.options.baseUrl,
      headers: engine.baseHeaders,
      fetch: engine.transport.fetch,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
    });
    kyOfEngine.set(engine, ky);
  }
  return ky;
}

/**
 * A typed call, loaded with zod and ky at the first one: validates `params` with the
 * endpoint's schema (rejecting with a `ValidationError`, nothing sent), after `HttpCore`
 * checked the request options into `overrides`, places them in the path, the query or
 * the body ({@link requestTarget}), takes media out of an ingesting body (`media.ts`), passes the body through `filter` (the client's mask), sends it as JSON through
 * ky within the engine's attempt loop, and resolves with the body parsed by the
 * endpoint's response schema, or for ingestion its status and body. A call to an endpoint that
 * ingests data carries an `Idempotency-Key`, the same on each retry.
 *
 * @example
 * ```ts
 * const { users } = await typedCall(engine, undefined, 'listEligibleUsers', undefined, { timeoutMs: 5_000 });
 * ```
 */
export async function typedCall<N extends EndpointName>(
  engine: HttpEngine,
  filter: BodyFilter | undefined,
  name: N,
  params: EndpointParams<(typeof ENDPOINTS)[N]>,
  overrides: CallOverrides,
): Promise<EndpointResult<(typeof ENDPOINTS)[N]>> {
  type Result = EndpointResult<(typeof ENDPOINTS)[N]>;
  const endpoint = ENDPOINTS[name];
  const { method, path, params: paramsSchema, response: responseSchema } = endpoint;
  const checked = paramsSchema === undefined ? undefined : parseOrThrow(paramsSchema, params);
  // What an ingesting endpoint stores goes without media (base64 images, audio, documents), masked after.
  const valid = checked !== undefined && (endpoint as Endpoint).ingests === true ? withoutMedia(checked) : checked;
  const target = requestTarget(method, path, valid);
  const body = target.json === undefined ? undefined : JSON.stringify(filter === undefined ? target.json : filter(endpoint, target.json));
  const key =
    overrides.headers?.[IDEMPOTENCY_HEADER] ?? overrides.idempotencyKey ?? ((endpoint as Endpoint).ingests === true ? newIdempotencyKey() : undefined);
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...overrides.headers,
    ...(key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key }),
  };
  const ky = await kyFor(engine);
  const response = await engine.exchange({ ...overrides, method, path: target.path }, (timeoutMs) =>
    withinTimeout(
      async (signal) => wireResponseOf(await ky(target.path.slice(1), { method, headers, body: body ?? null, signal })),
      timeoutMs,
      overrides.signal,
    ),
  );
  if (responseSchema === undefined) return { status: response.status, body: parseBody(response.text) } as Result;
  const parsed = parseBody(response.text);
  const result = z.safeParse(responseSchema, parsed);
  if (!result.success) {
    const issues = toIssues(result.error.issues, parsed);
    throw new UnexpectedResponseError(response.status, parsed, issues, method, target.path, response.attempt, new Headers(response.headers));
  }
  return result.data as Result;
}

/**
 * The range of `interactions.export`, checked like a call's params (a `ValidationError`
 * naming `from` or `to`), its times in UTC. Here, with the typed call, because it needs
 * zod: a lazy module of its own would make bundlers that split a user's bundle put zod in
 * the part that loads first (test/package/tree-shaking.test.ts).
 *
 * @example
 * ```ts
 * const { from, to } = checkExportRange({ from: '2026-10-01T00:00:00Z', to: new Date() });
 * ```
 */
export function checkExportRange(range: unknown): { from: string; to: string } {
  // The range's own fields: its `signal` is the export's, not the wire's.
  const fields = typeof range === 'object' && range !== null ? readOrThrow(range, () => ({ from: (range as { from?: unknown }).from, to: (range as { to?: unknown }).to })) : range;
  return parseOrThrow(exportRangeSchema, fields);
}
