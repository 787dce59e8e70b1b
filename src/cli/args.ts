import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, type ConnectionFlags } from './connection.js';
import { CliError, EXIT } from './failure.js';

/** The usage of `nebuly` as a whole. */
export const USAGE = `Usage: nebuly <command> [options]

Commands:
  users sync <file>     make the project's users what a CSV or JSON file says
  users export          print the project's users, as sync reads them
  replay <file>         resend the conversations of a dead-letter file
  doctor                check the host, the API key and the round trip

Run nebuly <command> --help for a command's options. docs/cli.md has the details.

${CONNECTION_USAGE}`;

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** What a command's command line says: its options' values, then its arguments. */
export interface ParsedCommand<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string } & ConnectionFlags & { help?: boolean };
  positionals: string[];
}

/**
 * Reads a command's arguments with `node:util` `parseArgs`: its own options, the
 * connection options and `--help`. Mistakes are usage errors (exit 2) whose message quotes
 * no value: a mistyped flag may be followed by a key.
 */
export function parseCommand<O extends Options>(
  argv: readonly string[],
  options: O,
  positionals: { min: number; max: number; command: string },
): ParsedCommand<O> {
  let parsed: ParsedCommand<O>;
  try {
    const config = {
      args: [...argv],
      options: { ...options, ...CONNECTION_OPTIONS, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    } satisfies ParseArgsConfig;
    parsed = parseArgs(config) as ParsedCommand<O>;
  } catch (error) {
    const message = (error as Error).message.split('. ')[0] ?? 'bad arguments';
    throw new CliError(`${message}. Run nebuly ${positionals.command} --help for its options.`, EXIT.usage);
  }
  const count = parsed.positionals.length;
  if (parsed.values.help !== true && (count < positionals.min || count > positionals.max)) {
    const expected = positionals.max === 0 ? 'no arguments' : positionals.min === positionals.max ? `${positionals.min} argument${positionals.min === 1 ? '' : 's'}` : `${positionals.min} to ${positionals.max} arguments`;
    throw new CliError(`expected ${expected}, got ${count}. Run nebuly ${positionals.command} --help for its usage.`, EXIT.usage);
  }
  return parsed;
}
