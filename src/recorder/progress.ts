/**
 * Numbered jobs and which of them are over, in O(1) each: waiting for "everything begun
 * before now" needs no promise per job, only a number, so that thousands of jobs waiting
 * their turn cost the heap next to nothing.
 *
 * @example
 * ```ts
 * const progress = new Progress();
 * const job = progress.begin();
 * const done = progress.whenDone(); // resolves once `job` is over
 * progress.finish(job);
 * ```
 */
export class Progress {
  /** The number the next job gets. */
  #next = 0;
  /** Every job below it is over. */
  #low = 0;
  /** Jobs over, at or above `#low`. */
  readonly #over = new Set<number>();
  /** Waits, in the order of their targets (each the `#next` of its call). */
  #waits: { target: number; resolve: () => void }[] = [];

  /** Numbers a new job. */
  begin(): number {
    const job = this.#next;
    this.#next += 1;
    return job;
  }

  /** Marks `job` over, and resolves the waits it was the last job of. */
  finish(job: number): void {
    if (job === this.#low) {
      // Jobs nearly always end in the order begun: the set is then never touched (adding
      // and deleting one number a job churned its table, ~230 bytes each).
      this.#low += 1;
      if (this.#over.size > 0) while (this.#over.delete(this.#low)) this.#low += 1;
    } else {
      this.#over.add(job);
    }
    let woken = 0;
    while (woken < this.#waits.length && (this.#waits[woken] as { target: number }).target <= this.#low) {
      (this.#waits[woken] as { resolve: () => void }).resolve();
      woken += 1;
    }
    if (woken > 0) this.#waits = this.#waits.slice(woken);
  }

  /** How many jobs are begun and not over. */
  get count(): number {
    return this.#next - this.#low - this.#over.size;
  }

  /** Resolves once every job begun before the call is over. */
  whenDone(): Promise<void> {
    if (this.#low >= this.#next) return Promise.resolve();
    return new Promise((resolve) => this.#waits.push({ target: this.#next, resolve }));
  }
}
