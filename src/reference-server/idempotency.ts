/** How long the reference remembers an `Idempotency-Key`: 24 hours, by its clock. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many keys the reference remembers at most; the oldest are forgotten first. */
export const IDEMPOTENCY_MAX_KEYS = 100_000;

/** The first response to a key, kept to be sent again to its repeats. */
export interface RememberedResponse {
  /** SHA-256 of the body, hex: a repeat with another body is refused. */
  readonly fingerprint: string;
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
  /** Milliseconds since the epoch, by the reference's clock. */
  readonly at: number;
}

/**
 * The SHA-256 of a body, hex. Web Crypto: the reference runs where `fetch` does.
 *
 * @example
 * ```ts
 * await fingerprintOf('{"a":1}'); // '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862'
 * ```
 */
export async function fingerprintOf(body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The responses given to `Idempotency-Key`s, per project, for 24 hours: the reference
 * stores a body once per key and sends a repeat the first response again, as the IETF
 * httpapi draft describes. Only successful (2xx) responses are kept: a refused body stored
 * nothing, so serving its repeat again gives the same response.
 *
 * @example
 * ```ts
 * const responses = new IdempotencyResponses(() => Date.now());
 * responses.remember('project-a', 'key-1', { fingerprint, status: 202, body: '{}', contentType: 'application/json', at: Date.now() });
 * responses.recall('project-a', 'key-1')?.status; // 202
 * ```
 */
export class IdempotencyResponses {
  // Insertion order is age order: forgetting the expired ones stops at the first fresh one.
  readonly #responses = new Map<string, RememberedResponse>();
  readonly #now: () => number;

  /** @param now The clock the 24 hours are counted by, in milliseconds. */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** The first response to `key` in `project`, when it is less than 24 hours old. */
  recall(project: string, key: string): RememberedResponse | undefined {
    this.#forgetExpired();
    return this.#responses.get(JSON.stringify([project, key]));
  }

  /** Keeps the response to `key` in `project`. */
  remember(project: string, key: string, response: RememberedResponse): void {
    this.#responses.set(JSON.stringify([project, key]), response);
    while (this.#responses.size > IDEMPOTENCY_MAX_KEYS) {
      const oldest = this.#responses.keys().next().value;
      if (oldest === undefined) break;
      this.#responses.delete(oldest);
    }
  }

  /** Forgets every key. */
  clear(): void {
    this.#responses.clear();
  }

  #forgetExpired(): void {
    const cutoff = this.#now() - IDEMPOTENCY_WINDOW_MS;
    for (const [id, response] of this.#responses) {
      if (response.at > cutoff) break;
      this.#responses.delete(id);
    }
  }
}
