import { parseArgs } from 'node:util';

/** The project of an `--api-key` given without `=project` and without `--project`. */
export const DEFAULT_CLI_PROJECT = 'default';

/** What the command line asks for. */
export interface CliConfig {
  /** The port to listen on; 0 picks a free one. */
  port: number;
  /** The interface to listen on. */
  host: string;
  /** API key → project. */
  apiKeys: Record<string, string>;
  /** The largest body taken; `undefined` for the server's default. */
  bodyLimitBytes: number | undefined;
  /** Print each stored interaction and feedback as it arrives. */
  print: boolean;
  /** The JSON file of the A/B experiments `/variants` answers from. */
  experimentsFile: string | undefined;
  /** Print the usage and exit. */
  help: boolean;
}

/** The usage text of `nebuly-reference-server`. */
export const USAGE = `Usage: nebuly-reference-server [options]

Runs the Nebuly API reference server on this machine, over an in-memory store.

Options:
  --port <n>           port to listen on; 0 picks a free one        (default 8787)
  --host <address>     interface to listen on                       (default 127.0.0.1)
  --api-key <key>      an accepted API key; repeatable; key=project names its project
                       (default: the NEBULY_API_KEY environment variable)
  --project <name>     project of the keys given without =project   (default ${DEFAULT_CLI_PROJECT})
  --body-limit <bytes> largest request body taken                   (default 1048576)
  --experiments <file> a JSON file of A/B experiments for /variants:
                       { "flag": [{ "kind": "prompt", "prompt": "…", "config_params": [] }, …] }
  --print              print each interaction and feedback as it is stored
                       (strings cut to 120 characters); GET /_reference/conversations
                       lists them all, with the key: see docs/reference-server.md
  -h, --help           show this help

Example:
  nebuly-reference-server --port 8787 --api-key dev-key --project dev-project
  nebuly-reference-server --api-key key-a=project-a --api-key key-b=project-b`;

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * `key=project` → ['key', 'project']; a bare key gets `fallbackProject`. The last `=`
 * separates, so a key with base64 padding (`abc==`) is still a bare key.
 */
function splitKey(text: string, fallbackProject: string): [string, string] {
  const at = text.lastIndexOf('=');
  const key = at === -1 ? text : text.slice(0, at);
  const project = at === -1 ? '' : text.slice(at + 1);
  if (at !== -1 && key !== '' && project !== '') return [key, project];
  return [text, fallbackProject];
}

/**
 * Reads the command line. Throws an `Error` whose message says what is wrong, never
 * quoting an API key.
 */
export function parseCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliConfig {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      project: { type: 'string' },
      'body-limit': { type: 'string' },
      print: { type: 'boolean' },
      experiments: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    // Positionals are refused below, without quoting them: a mistyped flag may be
    // followed by a key (`--apikey secret`).
    allowPositionals: true,
  });
  if (positionals.length > 0) {
    throw new Error(`unexpected argument${positionals.length === 1 ? '' : 's'} (options start with --)`);
  }
  const help = values.help === true;
  const project = values.project ?? DEFAULT_CLI_PROJECT;
  if (project.trim() === '') throw new Error('--project must not be empty');
  const given = values['api-key'] ?? [];
  const fromEnv = env['NEBULY_API_KEY']?.trim();
  const keys = given.length > 0 ? given : fromEnv === undefined || fromEnv === '' ? [] : [fromEnv];
  if (keys.length === 0 && !help) {
    throw new Error('no API key: pass --api-key <key> (repeatable) or set NEBULY_API_KEY');
  }
  const apiKeys: Record<string, string> = {};
  for (const text of keys) {
    const [key, keyProject] = splitKey(text.trim(), project);
    if (key === '') throw new Error('--api-key must not be empty');
    apiKeys[key] = keyProject;
  }
  return {
    port: values.port === undefined ? 8787 : wholeNumber('port', values.port, 0, 65_535),
    host: values.host ?? '127.0.0.1',
    apiKeys,
    bodyLimitBytes:
      values['body-limit'] === undefined
        ? undefined
        : wholeNumber('body-limit', values['body-limit'], 1, Number.MAX_SAFE_INTEGER),
    print: values.print === true,
    experimentsFile: values.experiments,
    help,
  };
}
