import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, type ConnectionFlags } from './connection.js';
import { CliError, EXIT } from './failure.js';
import { unknownOption } from './suggest.js';

/** The usage of `nebuly` as a whole. */
export const USAGE = `Usage: nebuly <command> [options]

Commands:
  users sync <file>     make the project's users what a CSV or JSON file says
  users export          print the project's users, as sync reads them
  interactions export   print the interactions of a range, as JSON Lines
  replay <file>         resend the conversations of a dead-letter file
  doctor                check the host, the API key and the round trip

Run nebuly <command> --help for a command's options, nebuly --version for the version.
docs/cli.md has the details.

${CONNECTION_USAGE}`;

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** What a command's command line says: its options' values, then its arguments. */
export interface ParsedCommand<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string } & ConnectionFlags & { help?: boolean };
  positionals: string[];
}

/** The option named in a `parseArgs` error message: `'--timeout'` of "Option '--timeout <value>' argument missing". */
function optionIn(message: string): string {
  return /'(-[^' ]+)/.exec(message)?.[1] ?? 'an option';
}

/** parseArgs' error in the CLI's words, naming the option, with a suggestion when one is near. */
function usageMessage(error: NodeJS.ErrnoException, known: readonly string[]): string {
  const option = optionIn(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return unknownOption(option, known);
  if (/argument missing/.test(error.message)) return `${option} needs a value (${option} <value>)`;
  if (/does not take an argument/.test(error.message)) return `${option} takes no value`;
  if (/ambiguous/.test(error.message)) return `${option} needs a value; to give one that starts with a dash, write ${option}=<value>`;
  return (error.message.split('. ')[0] ?? 'bad arguments').split('\n')[0] ?? 'bad arguments';
}

/**
 * `--timeout -5` as `--timeout=-5`: parseArgs takes a value starting with a dash for an
 * option, so the option's own check says what is wrong with it ("must be a whole number").
 */
function joinNegativeNumbers(argv: readonly string[], options: Readonly<Record<string, { type: string }>>): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    const next = argv[index + 1];
    const name = word.startsWith('--') ? word.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${word}=${next}`);
      index += 1;
    } else joined.push(word);
  }
  return joined;
}

/**
 * Reads a command's arguments with `node:util` `parseArgs`: its own options, the
 * connection options and `--help`. Mistakes are usage errors (exit 2) that name the
 * option and suggest the nearest known one; no value is quoted: a mistyped flag may be
 * followed by a key.
 */
export function parseCommand<O extends Options>(
  argv: readonly string[],
  options: O,
  positionals: { min: number; max: number; command: string },
): ParsedCommand<O> {
  let parsed: ParsedCommand<O>;
  const all = { ...options, ...CONNECTION_OPTIONS, help: { type: 'boolean', short: 'h' } } as const;
  try {
    const config = {
      args: joinNegativeNumbers(argv, all),
      options: all,
      strict: true,
      allowPositionals: true,
    } satisfies ParseArgsConfig;
    parsed = parseArgs(config) as ParsedCommand<O>;
  } catch (error) {
    const message = usageMessage(error as NodeJS.ErrnoException, Object.keys(all));
    throw new CliError(`${message}. Run nebuly ${positionals.command} --help for its options.`, EXIT.usage);
  }
  const count = parsed.positionals.length;
  if (parsed.values.help !== true && (count < positionals.min || count > positionals.max)) {
    const expected = positionals.max === 0 ? 'no arguments' : positionals.min === positionals.max ? `${positionals.min} argument${positionals.min === 1 ? '' : 's'}` : `${positionals.min} to ${positionals.max} arguments`;
    throw new CliError(`expected ${expected}, got ${count}. Run nebuly ${positionals.command} --help for its usage.`, EXIT.usage);
  }
  return parsed;
}
