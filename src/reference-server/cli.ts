import { readFile } from 'node:fs/promises';
import { parseCliArgs, USAGE, type CliConfig } from './cli-args.js';
import { checkExperiments, type Experiments } from './experiments.js';
import { createReferenceServer } from './node.js';
import { describeStored } from './print.js';

function readConfig(): CliConfig {
  try {
    return parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`nebuly-reference-server: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

/** The page's address: the server's, or the loopback one when it listens on every address. */
function pageUrl(url: string, port: number): string {
  return /^http:\/\/(0\.0\.0\.0|\[::\])(:|$)/.test(url) ? `http://127.0.0.1:${port}/` : `${url}/`;
}

/** The experiments of `--experiments <file>`; a file that cannot be read or is not valid stops the bin, saying why. */
async function readExperiments(path: string): Promise<Experiments> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    console.error(`nebuly-reference-server: --experiments ${path}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  try {
    return checkExperiments(value, `--experiments ${path}`);
  } catch (error) {
    console.error(`nebuly-reference-server: ${(error as Error).message.replace(/^reference server: /, '')}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  if (config.help) {
    console.log(USAGE);
    return;
  }
  const experiments = config.experimentsFile === undefined ? undefined : await readExperiments(config.experimentsFile);
  const server = await createReferenceServer({
    experiments,
    port: config.port,
    host: config.host,
    apiKeys: config.apiKeys,
    bodyLimitBytes: config.bodyLimitBytes,
    // Method, path, status and time only: the key is never printed, nor are bodies.
    onRequest: ({ method, path, status, durationMs }) => {
      console.log(`${method} ${path} ${status === 0 ? 'dropped' : status} ${durationMs}ms`);
    },
    ...(config.print ? { onStored: (record) => console.log(describeStored(record)) } : {}),
  });
  const projects = [...new Set(Object.values(config.apiKeys))].join(', ');
  const keyCount = Object.keys(config.apiKeys).length;
  console.log(
    `nebuly reference server listening on ${server.url} (${keyCount} API key${keyCount === 1 ? '' : 's'}; projects: ${projects}). Ctrl-C stops it.`,
  );
  console.log(`What it stored: open ${pageUrl(server.url, server.port)} in a browser on this machine (no key needed).`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('nebuly-reference-server: could not close cleanly', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`nebuly-reference-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
