import { doctor } from './doctor.js';
import { USAGE } from './args.js';
import type { Env } from './connection.js';
import { CliError, describeError, EXIT, exitCodeOf } from './failure.js';
import { processIo, type Io } from './io.js';
import { replay } from './replay/command.js';
import { usersExport } from './users/export.js';
import { usersSync } from './users/sync.js';

type Command = (argv: readonly string[], env: Env, io: Io) => Promise<void>;

const COMMANDS: Readonly<Record<string, Command>> = {
  'users sync': usersSync,
  'users export': usersExport,
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
  const found = find(argv);
  if (found === undefined) {
    // The words are not quoted back: a mistyped command may be followed by a key.
    io.err(`nebuly: unknown command\n\n${USAGE}\n`);
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

run(process.argv.slice(2), process.env, processIo()).then(
  (code) => {
    // Set, not process.exit(): stdout may still be draining into a pipe.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`nebuly: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
