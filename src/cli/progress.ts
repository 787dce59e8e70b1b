import { count, type Io } from './io.js';

const BAR_WIDTH = 24;
/** A terminal is redrawn at most this often; the last state is always drawn. */
const REDRAW_MS = 80;

/**
 * Progress of one task on stderr: a bar redrawn in place on a terminal, plain lines
 * elsewhere (at most one per percent, so a log of 10,000 items stays short).
 *
 * @example
 * ```ts
 * const progress = new Progress(io, 'insert', 10_000, 'users');
 * progress.advance(500);
 * progress.finish();
 * ```
 */
export class Progress {
  readonly #io: Io;
  readonly #label: string;
  readonly #total: number;
  readonly #unit: string;
  #done = 0;
  #note = '';
  #lastPercent = -1;
  #lastDraw = 0;
  #finished = false;

  constructor(io: Io, label: string, total: number, unit: string) {
    this.#io = io;
    this.#label = label;
    this.#total = total;
    this.#unit = unit;
  }

  /** Counts `by` more items done; `note` (e.g. `2 failed`) is shown after the count. */
  advance(by: number, note = ''): void {
    this.#done += by;
    this.#note = note;
    const percent = this.#total === 0 ? 100 : Math.floor((this.#done * 100) / this.#total);
    if (this.#io.interactive) {
      const now = Date.now();
      if (now - this.#lastDraw < REDRAW_MS && this.#done < this.#total) return;
      this.#lastDraw = now;
      const filled = Math.round((percent / 100) * BAR_WIDTH);
      this.#io.err(`\r\x1b[K${this.#label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent}% ${this.#counts()}`);
    } else if (percent !== this.#lastPercent || this.#done >= this.#total) {
      this.#io.err(`${this.#label}: ${this.#counts()}\n`);
    }
    this.#lastPercent = percent;
  }

  /** Ends the bar's line on a terminal. Idempotent. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#io.interactive && this.#lastPercent !== -1) this.#io.err('\n');
  }

  #counts(): string {
    const note = this.#note === '' ? '' : ` (${this.#note})`;
    return `${count(this.#done)}/${count(this.#total)} ${this.#unit}${note}`;
  }
}
