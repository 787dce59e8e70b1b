/** One request as the reference server received and answered it. */
export interface RecordedRequest {
  /** The HTTP method, upper case. */
  method: string;
  /** The path below the base URL, with its leading slash and without the query string. */
  path: string;
  /** The status answered; `0` when the connection was dropped by a fault. */
  status: number;
  /**
   * The body exactly as received, as text: the bytes the client put on the wire. `''`
   * when there was none, and when it was not read (GET, 404, 405, 401, 413, faults).
   */
  body: string;
  /** The project of the API key, when the key is a configured one; never the key itself. */
  project: string | undefined;
  /** Milliseconds from arrival to answer, injected delays included. */
  durationMs: number;
}

/** Selects recorded requests; every given field must match. */
export interface RequestFilter {
  /** The path below the base URL, exact. */
  path?: string;
  /** The HTTP method, any case. */
  method?: string;
}

function matches(request: RecordedRequest, filter: RequestFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (filter.path !== undefined && request.path !== filter.path) return false;
  if (filter.method !== undefined && request.method !== filter.method.toUpperCase()) return false;
  return true;
}

/**
 * The requests the reference server received, oldest first, so tests can check what went
 * over the wire and how often. Only the latest `limit` are kept, so that a long-running
 * server does not grow without bound.
 *
 * @example
 * ```ts
 * expect(server.requests.count({ method: 'POST' })).toBe(1);
 * const sent = JSON.parse(server.requests.last()!.body);
 * ```
 */
export class RequestLog {
  readonly #entries: RecordedRequest[] = [];
  readonly #limit: number;

  /** @param limit How many requests are kept; older ones are forgotten. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Records one request. Called by the server for every request it answers. */
  add(request: RecordedRequest): void {
    this.#entries.push({ ...request });
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
  }

  /** The recorded requests that match `filter` (all without one), oldest first, as copies. */
  all(filter?: RequestFilter): RecordedRequest[] {
    return this.#entries.filter((request) => matches(request, filter)).map((request) => ({ ...request }));
  }

  /** How many recorded requests match `filter` (all without one). */
  count(filter?: RequestFilter): number {
    return this.#entries.reduce((total, request) => total + (matches(request, filter) ? 1 : 0), 0);
  }

  /** The latest recorded request that matches `filter`, as a copy. */
  last(filter?: RequestFilter): RecordedRequest | undefined {
    for (let index = this.#entries.length - 1; index >= 0; index -= 1) {
      const request = this.#entries[index];
      if (request !== undefined && matches(request, filter)) return { ...request };
    }
    return undefined;
  }

  /** Forgets every recorded request. */
  clear(): void {
    this.#entries.length = 0;
  }
}
