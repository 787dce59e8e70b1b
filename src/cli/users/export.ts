import { parseCommand } from '../args.js';
import { connect, CONNECTION_USAGE, type Env } from '../connection.js';
import { CliError, describeError, EXIT } from '../failure.js';
import type { Io } from '../io.js';
import { usersApi } from './api.js';
import { writeUsersCsv } from './csv.js';
import { toExported } from './exported.js';
import { writeUsersJson } from './json.js';

const USAGE = `Usage: nebuly users export [options] > users.csv

Prints the project's users in the format \`nebuly users sync\` reads: syncing the output
back changes nothing.

Options:
  --format csv|json      output format                        (default csv)
  --safe-formulas        CSV for a spreadsheet: a cell starting with = + - @ is
                         written with a leading ' so it is not run as a formula
                         (the ' is then part of the value: do not sync it back)
  --platform             platform users instead of eligible users
  -h, --help             show this help

${CONNECTION_USAGE}`;

const OPTIONS = {
  format: { type: 'string' },
  'safe-formulas': { type: 'boolean' },
  platform: { type: 'boolean' },
} as const;

/** `nebuly users export`: the list, as CSV or JSON on stdout. */
export async function usersExport(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values } = parseCommand(argv, OPTIONS, { min: 0, max: 0, command: 'users export' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new CliError(`--format must be csv or json, got ${JSON.stringify(format)}`);
  const safeFormulas = values['safe-formulas'] === true;
  if (safeFormulas && format !== 'csv') throw new CliError('--safe-formulas is for CSV, which spreadsheets open; JSON has no formulas');
  const { client, host } = await connect(values, env);
  const api = usersApi(client, values.platform === true);
  let users;
  try {
    users = (await api.list()).users.map(toExported);
  } catch (error) {
    throw new CliError(`could not read the ${api.name}: ${describeError(error, host.shown)}`, EXIT.failed);
  }
  io.out(format === 'csv' ? writeUsersCsv(users, safeFormulas) : writeUsersJson(users));
}
