/**
 * A map that lets go of the entries that can no longer be used, in sweeps, each when the
 * map has doubled since the last: a server that sees many sessions or runs, some never
 * ended by their framework, stays bounded at a constant cost per entry.
 */

/** Below this many entries, a map does not look for dead ones. */
const SWEEP_FROM = 64;

/**
 * @internal A `Map` swept of dead entries as it grows.
 * @example
 * ```ts
 * const runs = new SweepingMap<string, Run>((run) => run.call.closed);
 * runs.set(runId, run); // may first let go of runs whose conversation ended
 * ```
 */
export class SweepingMap<K, V> extends Map<K, V> {
  readonly #dead: (value: V) => boolean;
  #sweepAt = SWEEP_FROM;

  /** `dead`: whether an entry can no longer be used and may be let go. */
  constructor(dead: (value: V) => boolean) {
    super();
    this.#dead = dead;
  }

  /** Adds an entry; when the map has doubled since the last sweep, dead entries go first. */
  override set(key: K, value: V): this {
    if (this.size >= this.#sweepAt && !this.has(key)) {
      for (const [known, entry] of this) if (this.#dead(entry)) this.delete(known);
      this.#sweepAt = Math.max(SWEEP_FROM, this.size * 2);
    }
    return super.set(key, value);
  }
}
