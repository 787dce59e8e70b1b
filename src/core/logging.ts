import { readEnv } from './env.js';
import type { NebulyError } from './nebuly-error.js';

/**
 * How much the client logs, least first: each level includes those before it.
 * `'error'`: an `onError` handler that threw; `'warn'`: background failures, when no
 * `onError` takes them; `'info'`: each retry and its wait; `'debug'`:
 * each request (method, path, status, ms, attempt).
 *
 * @example
 * ```ts
 * const level: LogLevel = 'debug';
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * What a log line carries beside its message: plain values, never the API key nor a
 * request or response body.
 *
 * @example
 * ```ts
 * const fields: LogFields = { method: 'GET', path: '/api/external/eligible-users', status: 200, ms: 41, attempt: 1 };
 * ```
 */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Where the client's log lines go: `console`, or any logger with these four methods
 * (pino, winston and bunyan loggers take `(message)`; wrap them to take the fields).
 * A logger that throws is ignored.
 *
 * @example
 * ```ts
 * const logger: Logger = {
 *   error: (message, fields) => pino.error(fields, message),
 *   warn: (message, fields) => pino.warn(fields, message),
 *   info: (message, fields) => pino.info(fields, message),
 *   debug: (message, fields) => pino.debug(fields, message),
 * };
 * new NebulyClient({ logger, logLevel: 'info' });
 * ```
 */
export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

/** The levels in order; a level logs what is at its index or below. */
const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** The level when neither `logLevel` nor NEBULY_LOG is set. */
const DEFAULT_LEVEL: LogLevel = 'warn';

/**
 * The default logger: `console`, each line prefixed so that it is known whose it is. The
 * fields are left out: every message says what they hold, and an object after each line
 * would double it. A logger of your own receives them.
 */
const consoleLogger: Logger = {
  error: (message) => console.error(`[nebuly-client] ${message}`),
  warn: (message) => console.warn(`[nebuly-client] ${message}`),
  // eslint-disable-next-line no-console -- the default logger is the console, by design
  info: (message) => console.info(`[nebuly-client] ${message}`),
  // eslint-disable-next-line no-console -- as above
  debug: (message) => console.debug(`[nebuly-client] ${message}`),
};

function isLevel(value: string): value is LogLevel {
  return (LEVELS as readonly string[]).includes(value);
}

/**
 * The client's log: lines at or below its level go to the logger, the others cost one
 * comparison. Never throws, whatever the logger does.
 *
 * @example
 * ```ts
 * const log = new Log('info', console);
 * if (log.enabled('debug')) log.debug('request', { method, path }); // skipped: below info
 * ```
 */
export class Log {
  readonly #rank: number;
  readonly #logger: Logger;

  constructor(level: LogLevel, logger: Logger) {
    this.#rank = LEVELS.indexOf(level);
    this.#logger = logger;
  }

  /** Whether lines of `level` are written: check it before building costly fields. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return LEVELS.indexOf(level) <= this.#rank;
  }

  error(message: string, fields?: LogFields): void {
    this.#write('error', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.#write('warn', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.#write('info', message, fields);
  }

  debug(message: string, fields?: LogFields): void {
    this.#write('debug', message, fields);
  }

  #write(level: Exclude<LogLevel, 'off'>, message: string, fields: LogFields | undefined): void {
    if (!this.enabled(level)) return;
    try {
      this.#logger[level](message, fields);
    } catch {
      // A logger that throws is the user's bug; logging must never break a request.
    }
  }
}

/**
 * The log of `logLevel` and `logger`: the level from the option, else NEBULY_LOG, else
 * `'warn'`; the logger from the option, else `console`. Throws a `TypeError` naming the
 * option for an unknown level or a logger that lacks a method.
 *
 * @example
 * ```ts
 * const log = resolveLog(undefined, undefined); // NEBULY_LOG's level, else 'warn', to console
 * ```
 */
export function resolveLog(level: unknown, logger: unknown): Log {
  return new Log(resolveLevel(level), resolveLogger(logger));
}

function resolveLevel(level: unknown): LogLevel {
  const allowed = LEVELS.map((name) => `'${name}'`).join(', ');
  if (level !== undefined) {
    if (typeof level === 'string' && isLevel(level)) return level;
    throw new TypeError(`nebuly-client: \`logLevel\` must be one of ${allowed}`);
  }
  const fromEnv = readEnv('NEBULY_LOG')?.toLowerCase();
  if (fromEnv === undefined) return DEFAULT_LEVEL;
  if (isLevel(fromEnv)) return fromEnv;
  throw new TypeError(`nebuly-client: NEBULY_LOG must be one of ${allowed} (or unset)`);
}

function resolveLogger(logger: unknown): Logger {
  if (logger === undefined) return consoleLogger;
  if (typeof logger !== 'object' || logger === null) {
    throw new TypeError(`nebuly-client: \`logger\` must be an object with error, warn, info and debug methods`);
  }
  for (const method of ['error', 'warn', 'info', 'debug'] as const) {
    let value: unknown;
    try {
      value = (logger as Record<string, unknown>)[method];
    } catch {
      throw new TypeError(`nebuly-client: \`logger.${method}\` could not be read (a getter or Proxy threw)`);
    }
    if (typeof value !== 'function') {
      throw new TypeError(`nebuly-client: \`logger.${method}\` must be a function (got ${value === null ? 'null' : typeof value})`);
    }
  }
  return logger as Logger;
}

/**
 * The reporter of background failures (the recorder's), the client's `onError` as
 * resolved. Without an `onError` of the user's, each failure is logged at warn: that is
 * the default `onError`. With one, the failure goes to it instead, and is not also
 * logged, so that it is never reported twice; an `onError` that throws or rejects is
 * logged at error, never thrown.
 *
 * @example
 * ```ts
 * const report = backgroundReporter(log, options.onError);
 * report(new NebulyError('not delivered')); // to onError, else logged at warn
 * ```
 */
export function backgroundReporter(
  log: Log,
  onError: ((error: NebulyError) => void) | undefined,
): (error: NebulyError) => void {
  if (onError === undefined) {
    return (error) => {
      const conversationId = conversationIdOf(error);
      log.warn(`${error.name}: ${error.message}`, {
        error: error.name,
        ...(conversationId === undefined ? {} : { conversationId }),
      });
    };
  }
  return (error) => {
    const handlerFailed = (thrown: unknown) =>
      log.error(`onError threw while handling a ${error.name}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, {
        error: error.name,
      });
    try {
      const returned: unknown = onError(error);
      if (returned instanceof Promise) returned.catch(handlerFailed);
    } catch (thrown) {
      handlerFailed(thrown);
    }
  };
}

/** The conversation a recorder error is about, when it names one. */
function conversationIdOf(error: NebulyError): string | undefined {
  const { conversationId } = error as { conversationId?: unknown };
  return typeof conversationId === 'string' ? conversationId : undefined;
}
