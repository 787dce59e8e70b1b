import { performance } from 'node:perf_hooks';
import { ENDPOINTS } from '../core/endpoints.js';
import { APIError, UnexpectedResponseError } from '../core/errors.js';
import { parseCommand } from './args.js';
import { connect, connectionUsage, resolveHost, resolveKey, type Env } from './connection.js';
import { CliError, describeError, EXIT } from './failure.js';
import { plural, type Io } from './io.js';

/** Doctor's time-out for its one request, and its retries, unless the flags say otherwise. */
const DOCTOR_DEFAULTS = { timeoutMs: 10_000, maxRetries: 0 };

const USAGE = `Usage: nebuly doctor [options]

Prints the host the commands would use and what chose it, checks that the service
accepts the API key (one GET of the eligible users, no retries), and prints the round
trip time. The key itself is never printed.

Options:
  -h, --help             show this help

${connectionUsage(DOCTOR_DEFAULTS)}`;

/** `nebuly doctor`: host and its source, key accepted or not, round trip. */
export async function doctor(argv: readonly string[], env: Env, io: Io): Promise<void> {
  const { values } = parseCommand(argv, {}, { min: 0, max: 0, command: 'doctor' });
  if (values.help === true) {
    io.out(`${USAGE}\n`);
    return;
  }
  const host = resolveHost(values, env);
  io.out(`host:       ${host.shown} (from ${host.source})\n`);
  let keySource: string;
  try {
    keySource = (await resolveKey(values, env)).source;
  } catch (error) {
    io.out('API key:    none\n');
    throw error;
  }
  io.out(`API key:    from ${keySource} (never printed)\n`);

  // The round trip is measured to the answer's headers: the list's body grows with the
  // project, the trip to the service does not.
  let roundTripMs: number | undefined;
  const timedFetch: typeof fetch = async (input, init) => {
    const start = performance.now();
    const response = await fetch(input, init);
    roundTripMs = performance.now() - start;
    return response;
  };
  const { client } = await connect(values, env, { fetch: timedFetch, ...DOCTOR_DEFAULTS });
  const path = `${ENDPOINTS.listEligibleUsers.method} ${ENDPOINTS.listEligibleUsers.path}`;
  const rtt = () => (roundTripMs === undefined ? '' : `round trip: ${roundTripMs.toFixed(0)} ms (to the answer's headers)\n`);
  try {
    const { users } = await client.eligibleUsers.list();
    io.out(`key check:  accepted (${path} answered with ${plural(users.length, 'user')})\n`);
    io.out(rtt());
  } catch (error) {
    io.out(`key check:  failed\n${rtt()}`);
    throw new CliError(notTheApi(error, host.shown, path) ?? describeError(error, host.shown), EXIT.failed);
  }
}

/**
 * What to say when the host answered but not as the Nebuly API does: the endpoint doctor
 * calls exists on the service for every key (a bad key is a 401), so a 404 or 405 there,
 * or a success that is not a list of users, means the base URL points elsewhere.
 */
function notTheApi(error: unknown, host: string, path: string): string | undefined {
  let answer: string;
  if (error instanceof UnexpectedResponseError) answer = `answered ${error.status} with a body that is not the Nebuly API's list of users`;
  else if (error instanceof APIError && (error.status === 404 || error.status === 405)) answer = `answered ${error.status}`;
  else return undefined;
  return `${host} answers, but it is not the Nebuly API: ${path} ${answer}. Check --base-url or NEBULY_BASE_URL: the service's origin with no path (https://backend.nebuly.com, or --region eu)`;
}
