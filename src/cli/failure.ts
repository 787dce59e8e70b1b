import {
  APIError,
  AuthenticationError,
  ConnectionError,
  NebulyError,
  PermissionDeniedError,
  TimeoutError,
  ValidationError,
} from '../core/errors.js';

import { redactText } from '../core/redact.js';
import { escapeControl } from './io.js';

/** The secrets this run knows (the key, its base64 form, what the base URL holds): never printed. */
const secrets = new Set<string>();

/**
 * Remembers a secret of this run, so that {@link redactSecrets} takes it (and its base64
 * form, as in a `Basic` header a proxy may echo) out of anything printed.
 */
export function registerSecret(secret: string): void {
  if (secret.length < 4) return;
  secrets.add(secret);
  secrets.add(Buffer.from(secret, 'utf8').toString('base64'));
}

/**
 * `text` without any secret of this run: every message the CLI prints goes through it, so
 * a key a server or proxy echoed (in an error body, an HTML page) is not shown.
 *
 * @example
 * ```ts
 * registerSecret(key);
 * io.err(redactSecrets(message)); // the key, if echoed, reads [redacted]
 * ```
 */
export function redactSecrets(text: string): string {
  let clean = text;
  for (const secret of secrets) clean = redactText(clean, secret);
  return clean;
}

/** The exit codes of `nebuly`: 0 done, 1 something failed, 2 bad usage or input (nothing sent). */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 });

/**
 * A failure the command explains in one message and ends with `exitCode`, without a stack
 * trace. Messages never hold the API key.
 */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT.usage) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The innermost `cause` message worth showing: `connect ECONNREFUSED 127.0.0.1:9`. */
function rootCause(error: Error): string | undefined {
  let cause: unknown = error.cause;
  let text: string | undefined;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    text = cause.message;
    cause = cause.cause;
  }
  return text === undefined || error.message.includes(text) ? undefined : text;
}

/**
 * One line that says what went wrong and what to do, for an error of the SDK or of the
 * command. SDK errors never carry the key; what the service wrote in them (an error
 * detail) has its control characters escaped.
 */
export function describeError(error: unknown, host: string): string {
  return error instanceof CliError ? error.message : escapeControl(describe(error, host));
}

function describe(error: unknown, host: string): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof AuthenticationError) {
    return `the service rejected the API key (401) at ${host}: check NEBULY_API_KEY, and that the key belongs to a project of this host's region`;
  }
  if (error instanceof PermissionDeniedError) {
    return `the API key may not do this (403) at ${host}: ${error.message}`;
  }
  if (error instanceof TimeoutError) return `no answer from ${host} in time: ${error.message}`;
  if (error instanceof ConnectionError) {
    const cause = rootCause(error);
    return `could not reach ${host}: ${error.message}${cause === undefined ? '' : ` (${cause})`}`;
  }
  if (error instanceof APIError && looksLikeHtml(error.body, error.headers)) {
    return `${host} answered ${error.status} with an HTML page: this does not look like the Nebuly API: check the base URL (a proxy, a load balancer or a login page may be in the way)`;
  }
  if (error instanceof APIError || error instanceof NebulyError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** An error page of a proxy or web server, rather than an answer of the API. */
function looksLikeHtml(body: unknown, headers: Headers): boolean {
  if (/^\s*text\/html\b/i.test(headers.get('content-type') ?? '')) return true;
  return typeof body === 'string' && /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body);
}

/** The exit code for an error: 2 for bad usage or input, 1 for the rest. */
export function exitCodeOf(error: unknown): number {
  return error instanceof CliError ? error.exitCode : EXIT.failed;
}

/**
 * Whether a failed request was refused for what it held (invalid, conflicting, too
 * large), so that the other requests of a sync or a replay may go on. Anything else (a
 * bad key, a rate limit or a failing service after the retries, no answer) would fail
 * every request alike: the command stops sending.
 */
export function concernsThisRequestOnly(error: unknown): boolean {
  return error instanceof ValidationError || (error instanceof APIError && [400, 409, 413, 422].includes(error.status));
}

/**
 * The usage error for a file the command was given and cannot read: the reason in words
 * for the usual cases, else the system's message.
 */
export function cannotRead(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : error instanceof Error
            ? error.message
            : String(error);
  return new CliError(`cannot read ${path}: ${reason}`, EXIT.usage);
}
