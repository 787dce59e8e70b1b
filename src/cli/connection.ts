import { readFile } from 'node:fs/promises';
import { NebulyClient } from '../client.js';
import { MAX_TIMER_DELAY_MS } from '../utils/timer-limit.js';
import { CLIENT_DEFAULTS, REGION_BASE_URLS, type ClientOptions, type Region } from '../core/options.js';
import { CliError, EXIT, registerSecret } from './failure.js';

/** The options every command takes, to reach the service. */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  region: { type: 'string' },
  'api-key-file': { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
} as const;

/**
 * The usage lines of {@link CONNECTION_OPTIONS}, with the defaults a command uses when
 * the flag is not given: the client's own (`CLIENT_DEFAULTS`), or what the command gives
 * {@link connect} in their place (`nebuly doctor`: one attempt of 10 s). One source each.
 *
 * @example
 * ```ts
 * const usage = connectionUsage({ timeoutMs: 10_000, maxRetries: 0 });
 * ```
 */
export function connectionUsage({ timeoutMs, maxRetries }: { timeoutMs: number; maxRetries: number } = CLIENT_DEFAULTS): string {
  return `Connection (flags beat the environment):
  --base-url <url>       host to use                    (NEBULY_BASE_URL)
  --region us|eu         the project's region            (NEBULY_REGION; default us)
  --api-key-file <path>  read the API key from a file    (NEBULY_API_KEY)
  --timeout <ms>         time-out of one attempt         (default ${timeoutMs})
  --max-retries <n>      retries of a failed request     (default ${maxRetries})`;
}

/** {@link connectionUsage} with the client's defaults, which every command but `doctor` uses. */
export const CONNECTION_USAGE = connectionUsage();

/** The connection flags as `parseArgs` returns them. */
export interface ConnectionFlags {
  'base-url'?: string | undefined;
  region?: string | undefined;
  'api-key-file'?: string | undefined;
  timeout?: string | undefined;
  'max-retries'?: string | undefined;
}

/** The environment, as read by the command. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The host the command talks to, and what chose it. */
export interface ResolvedHost {
  baseUrl: string;
  /**
   * The base URL as printed: a user name, password or query values in it (where a key is
   * sometimes put) replaced by `***`.
   */
  shown: string;
  /** `--base-url`, `--region eu`, `NEBULY_BASE_URL`, `NEBULY_REGION=eu` or `default (us)`. */
  source: string;
}

/**
 * `url` with what may hold a secret masked: the user name and password, and each query
 * value. `https://key@host/?api_key=k` → `https://***@host/?api_key=***`.
 *
 * @example
 * ```ts
 * shownUrl('https://u:p@backend.nebuly.com/?token=abc'); // 'https://***:***@backend.nebuly.com/?token=***'
 * ```
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (parsed.username !== '') parsed.username = '***';
  if (parsed.password !== '') parsed.password = '***';
  const names = [...parsed.searchParams.keys()];
  if (parsed.search !== '') parsed.search = names.map((name) => `${encodeURIComponent(name)}=***`).join('&');
  if (parsed.hash !== '') parsed.hash = '***';
  return parsed.href.replace(/\/+$/, '').replaceAll('%2A%2A%2A', '***');
}

/** Every secret in a base URL: its user name, password and query values, for redaction. */
export function secretsOfUrl(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.username, parsed.password, ...parsed.searchParams.values(), parsed.hash.slice(1)]
      .flatMap((value) => [value, safeDecode(value)])
      .filter((value) => value.length >= 4);
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

// A setting may hold a key pasted into the wrong variable (NEBULY_REGION for
// NEBULY_API_KEY): a bad value is quoted only when short and word-like, as the client does.
const QUOTABLE_REGION = /^[A-Za-z][A-Za-z0-9_-]{0,15}$/;

function regionUrl(region: string, where: string): string {
  const normalized = region.trim().toLowerCase();
  if (!Object.hasOwn(REGION_BASE_URLS, normalized)) {
    const shown = QUOTABLE_REGION.test(region) ? JSON.stringify(region) : `(a ${region.length}-character value, not shown)`;
    throw new CliError(`${where}: unknown region ${shown}; use us or eu`);
  }
  return REGION_BASE_URLS[normalized as Region];
}

function checkedUrl(url: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${where}: not a URL; give an absolute one, such as https://backend.nebuly.com`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`${where}: the URL must start with https:// or http://`);
  }
  return parsed.href.replace(/\/+$/, '');
}

/**
 * The host, most specific first: `--base-url`, `--region`, NEBULY_BASE_URL,
 * NEBULY_REGION, then the US host. A flag typed for this run beats the environment.
 */
export function resolveHost(flags: ConnectionFlags, env: Env): ResolvedHost {
  const host = (baseUrl: string, source: string): ResolvedHost => {
    for (const secret of secretsOfUrl(baseUrl)) registerSecret(secret);
    return { baseUrl, shown: shownUrl(baseUrl), source };
  };
  if (flags['base-url'] !== undefined) return host(checkedUrl(flags['base-url'], '--base-url'), '--base-url');
  if (flags.region !== undefined) return host(regionUrl(flags.region, '--region'), `--region ${flags.region}`);
  const envUrl = setting(env, 'NEBULY_BASE_URL');
  if (envUrl !== undefined) return host(checkedUrl(envUrl, 'NEBULY_BASE_URL'), 'NEBULY_BASE_URL');
  const envRegion = setting(env, 'NEBULY_REGION');
  if (envRegion !== undefined) return host(regionUrl(envRegion, 'NEBULY_REGION'), `NEBULY_REGION=${envRegion}`);
  return host(REGION_BASE_URLS.us, 'default (region us)');
}

/** The API key and where it came from; the key itself is never shown. */
export interface ResolvedKey {
  key: string;
  source: string;
}

/**
 * The key from `--api-key-file`, else NEBULY_API_KEY. There is no flag that takes the
 * key itself: a command line is visible to other users of the machine and kept in shell
 * history.
 */
export async function resolveKey(flags: ConnectionFlags, env: Env): Promise<ResolvedKey> {
  const file = flags['api-key-file'];
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CliError(`--api-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const key = text.trim();
    if (key === '') throw new CliError(`--api-key-file: ${file} is empty`);
    registerSecret(key);
    return { key, source: `--api-key-file ${file}` };
  }
  const key = setting(env, 'NEBULY_API_KEY');
  if (key === undefined) {
    throw new CliError('no API key: set NEBULY_API_KEY, or pass --api-key-file <path>');
  }
  registerSecret(key);
  return { key, source: 'NEBULY_API_KEY' };
}

/** Reads a whole-number flag; `undefined` when not given; a usage error naming the flag when bad. */
export function readWholeNumber(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new CliError(`--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** A client and what it connects to. */
export interface Connection {
  client: NebulyClient;
  host: ResolvedHost;
  keySource: string;
}

/**
 * Resolves host and key and makes the client. `overrides` may set `fetch`, time-out and
 * retries for one command (doctor measures its own round trip).
 */
export async function connect(
  flags: ConnectionFlags,
  env: Env,
  overrides: Pick<ClientOptions, 'fetch' | 'timeoutMs' | 'maxRetries'> = {},
): Promise<Connection> {
  const host = resolveHost(flags, env);
  const { key, source } = await resolveKey(flags, env);
  const timeoutMs = readWholeNumber('timeout', flags.timeout, 1, MAX_TIMER_DELAY_MS) ?? overrides.timeoutMs;
  const maxRetries = readWholeNumber('max-retries', flags['max-retries'], 0, 100) ?? overrides.maxRetries;
  try {
    const client = new NebulyClient({
      apiKey: key,
      baseUrl: host.baseUrl,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(maxRetries === undefined ? {} : { maxRetries }),
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
    });
    return { client, host, keySource: source };
  } catch (error) {
    // The client's messages never repeat the key.
    throw new CliError(`${source}: ${(error as Error).message.replace(/^nebuly-client: /, '')}`, EXIT.usage);
  }
}
