import type { DeliveryReport } from './delivery-report.js';
import { RecordingError } from './errors.js';
import { type ExitWatcher, unwatchExit, watchExit } from './exit-hook.js';
import { LANE, pace, paced } from './slices.js';
import { startTimer } from './timers.js';

/** Options of `nebuly.shutdown`. */
export interface ShutdownOptions {
  /**
   * How long to wait for the last sends; then the requests still running are aborted and
   * what is left goes to `onError`. `Infinity`: as long as it takes.
   * @default the recorder's `shutdownTimeoutMs` (20 s)
   */
  timeoutMs?: number | undefined;
}

/** The recorder's parts that closing waits for, and how it lets go of what is open. */
export interface ClosingParts<C> {
  /** The open conversations, taken at once: nothing is recorded on them from then on. */
  takeOpen: () => readonly C[];
  /** Lets go of one open conversation (ends and sends it, or leaves it to a shared store). */
  letGo: (conversation: C) => void;
  /** Resolves once what was let go is stored and handed to the publisher. */
  handedOver: () => Promise<unknown>;
  /** Closes the publisher within the time left, and resolves with its report. */
  closePublisher: (timeLeftMs: number, timeoutMs: number) => Promise<DeliveryReport>;
  /** Resolves once the store was told how every send ended. */
  settled: () => Promise<unknown>;
}

/**
 * Closes the recorder within `timeoutMs` from now: lets go of every open conversation, in
 * slices (there may be thousands), waits for them to reach the publisher, closes it
 * (aborting what still runs at the deadline), and resolves with its report. The process
 * stays alive until the deadline, whatever stage the conversations are in.
 *
 * @example
 * ```ts
 * const delivery = await closeAll(parts, 20_000);
 * ```
 */
export async function closeAll<C>(parts: ClosingParts<C>, timeoutMs: number): Promise<DeliveryReport> {
  const started = Date.now();
  let expire!: () => void;
  const expired = new Promise<void>((resolve) => {
    expire = resolve;
  });
  const deadline = Number.isFinite(timeoutMs) ? startTimer(expire, timeoutMs, { keepAlive: true }) : undefined;
  const open = parts.takeOpen();
  // Not in the caller's call: shutdown() returns at once.
  await paced(LANE.end);
  for (const conversation of open) {
    parts.letGo(conversation);
    const wait = pace(LANE.end);
    if (wait !== undefined) await wait;
  }
  await Promise.race([parts.handedOver(), expired]);
  const delivery = await parts.closePublisher(Math.max(0, timeoutMs - (Date.now() - started)), timeoutMs);
  clearTimeout(deadline);
  await Promise.race([parts.settled(), expired]);
  return delivery;
}

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
