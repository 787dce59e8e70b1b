/**
 * How long a child Node process started by a test (with tsx, which compiles on start)
 * may take before it is killed: a bound against a hang, never a measure. A loaded
 * machine (eight suites on two cores) starts tsx in tens of seconds, so the bound is far
 * above any normal run; vitest.config.ts gives tests more than this.
 *
 * @example
 * ```ts
 * await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: PROCESS_TIMEOUT_MS });
 * ```
 */
export const PROCESS_TIMEOUT_MS = 100_000;
