import { doctor } from './doctor.js';
import { interactionsExport } from './interactions/export.js';
import { USAGE } from './args.js';
import type { Env } from './connection.js';
import { CliError, describeError, EXIT, exitCodeOf, redactSecrets } from './failure.js';
import { processIo, type Io } from './io.js';
import { replay } from './replay/command.js';
import { usersExport } from './users/export.js';
import { unknownCommand } from './suggest.js';
import { usersSync } from './users/sync.js';
import { packageVersion } from './version.js';

type Command = (argv: readonly string[], env: Env, io: Io) => Promise<void>;

const COMMANDS: Readonly<Record<string, Command>> = {
  'users sync': usersSync,
  'users export': usersExport,
  'interactions export': interactionsExport,
  replay,
  doctor,
};

function find(argv: readonly string[]): { name: string; command: Command; rest: readonly string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS[name];
    if (command !== undefined && Object.hasOwn(COMMANDS, name)) return { name, command, rest: argv.slice(words) };
  }
  return undefined;
}

/**
 * Runs `nebuly` with its arguments and resolves to the exit code. Every failure becomes
 * one message on stderr, never a stack trace; none holds the API key.
 */
async function run(argv: readonly string[], env: Env, io: Io): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(`${USAGE}\n`);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    io.out(`nebuly ${await packageVersion()}\n`);
    return EXIT.ok;
  }
  const found = find(argv);
  if (found === undefined) {
    // Words are echoed only when they look like a command: one may be followed by a key.
    io.err(`nebuly: ${unknownCommand(argv, Object.keys(COMMANDS))}\n\nRun nebuly --help for the commands.\n`);
    return EXIT.usage;
  }
  try {
    await found.command(found.rest, env, io);
    return EXIT.ok;
  } catch (error) {
    const message = error instanceof CliError ? error.message : describeError(error, 'the service');
    io.err(`nebuly ${found.name}: ${message}\n`);
    return exitCodeOf(error);
  }
}

// `nebuly users export | head`: the reader went away. Stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') process.stderr.write(`nebuly: cannot write the output: ${error.message}\n`);
  process.exit(error.code === 'EPIPE' ? EXIT.ok : EXIT.failed);
});

// Everything printed goes through the redaction of this run's secrets: a key echoed by a
// server or proxy, in a body or an HTML page, is not shown.
const raw = processIo();
const io: Io = { ...raw, out: (text) => raw.out(redactSecrets(text)), err: (text) => raw.err(redactSecrets(text)) };

run(process.argv.slice(2), process.env, io).then(
  (code) => {
    // Set, not process.exit(): stdout may still be draining into a pipe.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`nebuly: unexpected failure: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = EXIT.failed;
  },
);
