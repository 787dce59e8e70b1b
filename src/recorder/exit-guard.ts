import { RecordingError } from './errors.js';
import { type ExitWatcher, unwatchExit, watchExit } from './exit-hook.js';

/** What an {@link ExitGuard} asks of its recorder. */
export interface ExitGuardInit {
  /** How many conversations are open, and how many ended and not settled. */
  counts: () => { open: number; unsent: number };
  /** Whether open conversations are also in a store that other instances sweep. */
  shared: boolean;
  /** The event loop emptied with something at risk: send it, as `shutdown()` would. */
  beforeExit: () => void;
  report: (error: RecordingError) => void;
}

/**
 * Watches the process's exit while a conversation is open or unsent, and only then (an
 * idle client adds no listener, and one dropped without `shutdown()` is not held), and
 * says once, at exit, how much is not sent, so that it is not lost silently.
 *
 * @example
 * ```ts
 * const guard = new ExitGuard({ counts, shared: false, beforeExit, report });
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
    const { open, unsent } = this.#init.counts();
    const atRisk = open > 0 || unsent > 0;
    if (atRisk === this.#watching) return;
    this.#watching = atRisk;
    if (atRisk) watchExit(this.#watcher);
    else unwatchExit(this.#watcher);
  }

  /** The process is exiting now (`process.exit()`, or the loop emptied with `sendOnExit` off): nothing more can be sent. */
  #exit(): void {
    const { open, unsent } = this.#init.counts();
    this.#watching = false;
    unwatchExit(this.#watcher);
    if (open + unsent === 0) return;
    // With a shared store, the ended turns of open conversations are safe there (a sweep
    // sends them); what this process loses is its turns not ended yet.
    const openSaid = this.#init.shared ? `${open} open, their turns not ended lost, the rest left in the shared store` : `${open} open`;
    this.#init.report(
      new RecordingError(
        'unsent_at_exit',
        `The process exited with ${open + unsent} conversation(s) not sent (${openSaid}, ${unsent} ended and unsent): ` +
          'await nebuly.shutdown() before the process exits (before process.exit(), in SIGINT / SIGTERM handlers)',
      ),
    );
  }
}
