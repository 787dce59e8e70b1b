import { RecordingError } from './recording-error.js';
import { type ExitWatcher, unwatchExit, watchExit } from './exit-hook.js';

/** What a process exit would lose now: see {@link ExitGuardInit.counts}. */
export interface AtRisk {
  /** Conversations open in this process. */
  open: number;
  /** Conversations (with `delivery: 'interaction'`, interactions) ended and not yet delivered or reported. */
  unsent: number;
  /** Interactions ended and not yet in the store. */
  unstored: number;
}

/** What an {@link ExitGuard} asks of its recorder. */
export interface ExitGuardInit {
  /** What is at risk now: cheap, called after anything that opens, ends or settles. */
  counts: () => AtRisk;
  /** With a shared store: how many turns of the open conversations are not ended (counted at exit only). */
  openTurns: () => number;
  /**
   * Where ended turns go: `conversations`, held in this process until their conversation
   * is sent; `shared`, a store other instances sweep (only what never reached it is lost);
   * `interactions`, sent one by one (`delivery: 'interaction'`: only what is not sent yet is lost).
   */
  holds: 'conversations' | 'shared' | 'interactions';
  /** The event loop emptied with something at risk: send it, as `shutdown()` would. */
  beforeExit: () => void;
  report: (error: RecordingError) => void;
}

/**
 * Watches the process's exit while a conversation is open or unsent, and only then (an
 * idle client adds no listener, and one dropped without `shutdown()` is not held), and
 * says once, at exit, what is lost, so that nothing is lost silently, and only that:
 * nothing already delivered or reported, and, with a shared store, nothing the store
 * holds (another instance's sweep sends it).
 *
 * @example
 * ```ts
 * const guard = new ExitGuard({ counts, openTurns, holds: 'conversations', beforeExit, report });
 * guard.update(); // after anything that opens, ends or settles a conversation
 * ```
 */
export class ExitGuard {
  readonly #init: ExitGuardInit;
  readonly #watcher: ExitWatcher = {
    beforeExit: () => this.#init.beforeExit(),
    exit: () => this.#exit(),
  };
  #watching = false;

  constructor(init: ExitGuardInit) {
    this.#init = init;
  }

  /** Watches or stops watching, as what is at risk now says. */
  update(): void {
    const { open, unsent, unstored } = this.#init.counts();
    const atRisk = open > 0 || unsent > 0 || unstored > 0;
    if (atRisk === this.#watching) return;
    this.#watching = atRisk;
    if (atRisk) watchExit(this.#watcher);
    else unwatchExit(this.#watcher);
  }

  /** The process is exiting now (`process.exit()`, or the loop emptied with `sendOnExit` off): nothing more can be sent. */
  #exit(): void {
    const { open, unsent, unstored } = this.#init.counts();
    const { holds } = this.#init;
    this.#watching = false;
    unwatchExit(this.#watcher);
    // With a shared store (or each turn sent as it ends), an open conversation's ended
    // turns are safe: lost is what never got there.
    const [lost, detail] =
      holds === 'conversations'
        ? [open + unsent, `conversation(s) not sent (${open} open, ${unsent} ended and unsent)`]
        : [this.#init.openTurns(), holds === 'shared' ? unstored : unstored + unsent];
    const count = typeof detail === 'number' ? lost + detail : lost;
    if (count === 0) return;
    const what =
      typeof detail === 'string'
        ? detail
        : `interaction(s) not ${holds === 'shared' ? 'in the shared store' : 'sent'} (${lost} not ended, ${detail} ended, not yet ${holds === 'shared' ? 'stored' : 'sent'})`;
    this.#init.report(
      new RecordingError(
        'unsent_at_exit',
        `The process exited with ${count} ${what}: await nebuly.shutdown() before the process exits (before process.exit(), in SIGINT / SIGTERM handlers)`,
      ),
    );
  }
}
