/** How long the reference remembers an `Idempotency-Key`: 24 hours, by its clock. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many keys the reference remembers at most; the oldest are forgotten first. */
export const IDEMPOTENCY_MAX_KEYS = 100_000;

/** The first answer to a key, kept to answer its repeats. */
export interface RememberedAnswer {
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
 * The answers given to `Idempotency-Key`s, per project, for 24 hours: the reference
 * stores a body once per key and answers a repeat with the first answer, as the IETF
 * httpapi draft describes. Only successful (2xx) answers are kept: a refused body stored
 * nothing, so serving its repeat again answers the same.
 *
 * @example
 * ```ts
 * const answers = new IdempotencyAnswers(() => Date.now());
 * answers.remember('project-a', 'key-1', { fingerprint, status: 202, body: '{}', contentType: 'application/json', at: Date.now() });
 * answers.recall('project-a', 'key-1')?.status; // 202
 * ```
 */
export class IdempotencyAnswers {
  // Insertion order is age order: forgetting the expired ones stops at the first fresh one.
  readonly #answers = new Map<string, RememberedAnswer>();
  readonly #now: () => number;

  /** @param now The clock the 24 hours are counted by, in milliseconds. */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** The first answer to `key` in `project`, when it is less than 24 hours old. */
  recall(project: string, key: string): RememberedAnswer | undefined {
    this.#forgetExpired();
    return this.#answers.get(JSON.stringify([project, key]));
  }

  /** Keeps the answer to `key` in `project`. */
  remember(project: string, key: string, answer: RememberedAnswer): void {
    this.#answers.set(JSON.stringify([project, key]), answer);
    while (this.#answers.size > IDEMPOTENCY_MAX_KEYS) {
      const oldest = this.#answers.keys().next().value;
      if (oldest === undefined) break;
      this.#answers.delete(oldest);
    }
  }

  /** Forgets every key. */
  clear(): void {
    this.#answers.clear();
  }

  #forgetExpired(): void {
    const cutoff = this.#now() - IDEMPOTENCY_WINDOW_MS;
    for (const [id, answer] of this.#answers) {
      if (answer.at > cutoff) break;
      this.#answers.delete(id);
    }
  }
}
