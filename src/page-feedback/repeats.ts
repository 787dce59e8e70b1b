/**
 * What keeps a feedback token from being a licence to flood: per interaction and kind of
 * feedback (a thumb, a rating, a copy, …), the last word this process recorded. A word
 * repeated is absorbed (the page is answered 204, nothing is recorded again); a changed
 * word (thumbs down after up, a new rating) is recorded, so that the last one given is
 * the last one recorded, up to {@link MAX_WORDS} words per interaction and kind. Entries
 * live as long as the token that made them could be used, and at most
 * {@link MAX_ENTRIES} are kept, the oldest let go first.
 *
 * In this process only: the same thumb posted to two instances is recorded by each.
 */

/** Words recorded per interaction and kind of feedback; more are absorbed. */
export const MAX_WORDS = 4;

/** Entries kept at most (about 200 bytes each): past it, the oldest are let go. */
export const MAX_ENTRIES = 50_000;

interface Entry {
  last: string;
  words: number;
  expiresAt: number;
}

/** Thumbs up and down are one kind: the user's one opinion of the answer. */
function kindOf(slug: string): string {
  return slug === 'thumbs_up' || slug === 'thumbs_down' ? 'thumbs' : slug;
}

/**
 * The memory of recorded feedback words.
 *
 * @example
 * ```ts
 * const repeats = new Repeats();
 * if (repeats.admit(claims, action, Date.now())) await nebuly.feedback({ ...ids, ...action });
 * ```
 */
export class Repeats {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(maxEntries: number = MAX_ENTRIES) {
    this.#maxEntries = maxEntries;
  }

  /**
   * Whether `action` on the interaction is to be recorded: not when it repeats the last
   * word of its kind, nor past {@link MAX_WORDS}. Admitting it remembers it until
   * `expiresAt` (ms since the epoch: the token's expiry).
   */
  admit(
    ids: { conversationId: string; interactionId: string },
    action: { slug: string; text?: string | undefined; value?: number | undefined },
    expiresAt: number,
    now: number,
  ): boolean {
    const key = JSON.stringify([ids.conversationId, ids.interactionId, kindOf(action.slug)]);
    const word = JSON.stringify([action.slug, action.text ?? null, action.value ?? null]);
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > now) {
      if (entry.last === word || entry.words >= MAX_WORDS) return false;
      entry.last = word;
      entry.words += 1;
      entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
      return true;
    }
    this.#entries.delete(key);
    this.#entries.set(key, { last: word, words: 1, expiresAt });
    this.#trim(now);
    return true;
  }

  /** Lets go of the oldest entries past the bound, and of expired ones met on the way. */
  #trim(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && entry.expiresAt > now) return;
      this.#entries.delete(key);
    }
  }
}
