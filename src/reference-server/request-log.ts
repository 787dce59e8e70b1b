/** One request as the reference server received and responded to it. */
export interface RecordedRequest {
  /** The HTTP method, upper case. */
  method: string;
  /** The path below the base URL, with its leading slash and without the query string. */
  path: string;
  /** The status responded with; `0` when the connection was dropped by a fault. */
  status: number;
  /**
   * The body exactly as received, as text: the bytes the client put on the wire. `''`
   * when there was none, when it was not read (GET, 404, 405, 401, 413, faults), and
   * when the log dropped it to stay within its byte bound (`bodyDropped`).
   */
  body: string;
  /** `true` when the body was dropped to keep the log's bodies within `maxRecordedBytes`. */
  bodyDropped: boolean;
  /** The project of the API key, when the key is a configured one; never the key itself. */
  project: string | undefined;
  /** Milliseconds from arrival to response, injected delays included. */
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

/** Bytes of a string in UTF-8, counted without making a copy. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4; // a surrogate pair: one code point of four bytes
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

interface Entry {
  request: RecordedRequest;
  bytes: number;
}

/**
 * The requests the reference server received, oldest first, so tests can check what went
 * over the wire and how often. Only the latest `limit` are kept, and their bodies
 * together stay within `maxBytes` (UTF-8): past it, the oldest bodies are dropped first
 * (the request stays, `body: ''`, `bodyDropped: true`) and counted in `droppedBodies`,
 * so that a long-running server does not grow without bound.
 *
 * @example
 * ```ts
 * expect(server.requests.count({ method: 'POST' })).toBe(1);
 * const sent = JSON.parse(server.requests.last()!.body);
 * ```
 */
export class RequestLog {
  #entries: Entry[] = [];
  readonly #limit: number;
  readonly #maxBytes: number;
  #bytes = 0;
  // The oldest entry that may still hold a body: dropping resumes there, not at the start.
  #firstWithBody = 0;
  #droppedBodies = 0;

  /**
   * @param limit How many requests are kept; older ones are forgotten.
   * @param maxBytes How many bytes of bodies are kept; older bodies are dropped first.
   */
  constructor(limit: number, maxBytes = Number.POSITIVE_INFINITY) {
    this.#limit = limit;
    this.#maxBytes = maxBytes;
  }

  /** Records one request. Called by the server for every request it responds to. */
  add(request: Omit<RecordedRequest, 'bodyDropped'>): void {
    const bytes = utf8Length(request.body);
    this.#entries.push({ request: { ...request, bodyDropped: false }, bytes });
    this.#bytes += bytes;
    if (this.#entries.length > this.#limit) {
      const forgotten = this.#entries.splice(0, this.#entries.length - this.#limit);
      for (const entry of forgotten) this.#bytes -= entry.bytes;
      this.#firstWithBody = Math.max(0, this.#firstWithBody - forgotten.length);
    }
    while (this.#bytes > this.#maxBytes && this.#firstWithBody < this.#entries.length) {
      const entry = this.#entries[this.#firstWithBody];
      this.#firstWithBody += 1;
      if (entry === undefined || entry.bytes === 0) continue;
      this.#bytes -= entry.bytes;
      entry.bytes = 0;
      entry.request = { ...entry.request, body: '', bodyDropped: true };
      this.#droppedBodies += 1;
    }
  }

  /** How many bodies were dropped to stay within the byte bound, since the start or `clear()`. */
  get droppedBodies(): number {
    return this.#droppedBodies;
  }

  /** The bytes (UTF-8) of the bodies kept now. */
  get bodyBytes(): number {
    return this.#bytes;
  }

  /** The recorded requests that match `filter` (all without one), oldest first, as copies. */
  all(filter?: RequestFilter): RecordedRequest[] {
    return this.#entries.filter((entry) => matches(entry.request, filter)).map((entry) => ({ ...entry.request }));
  }

  /** How many recorded requests match `filter` (all without one). */
  count(filter?: RequestFilter): number {
    return this.#entries.reduce((total, entry) => total + (matches(entry.request, filter) ? 1 : 0), 0);
  }

  /** The latest recorded request that matches `filter`, as a copy. */
  last(filter?: RequestFilter): RecordedRequest | undefined {
    for (let index = this.#entries.length - 1; index >= 0; index -= 1) {
      const entry = this.#entries[index];
      if (entry !== undefined && matches(entry.request, filter)) return { ...entry.request };
    }
    return undefined;
  }

  /** Forgets every recorded request, and the count of dropped bodies. */
  clear(): void {
    this.#entries = [];
    this.#bytes = 0;
    this.#firstWithBody = 0;
    this.#droppedBodies = 0;
  }
}
