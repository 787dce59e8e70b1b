/**
 * The delivery benchmark's server, in a process of its own so that its CPU is not the
 * client's: the reference server of the build under test, on loopback. Driven over IPC:
 * it answers `{ url }` once listening, then `bodies` (the accepted conversation bodies
 * since the last `clear`) and `clear`.
 */
import type { ReferenceServerModule } from './sdk.js';

const [dist, apiKey = 'bench-key', project = 'bench', path = ''] = process.argv.slice(2);
if (dist === undefined || process.send === undefined) throw new Error('run by bench/delivery.ts with an IPC channel');
const send = process.send.bind(process);

const reference = (await import(new URL('reference-server.js', dist).href)) as ReferenceServerModule;
const server = await reference.createReferenceServer({ apiKeys: { [apiKey]: project }, maxRecordedRequests: 10_000 });

process.on('message', (message: 'bodies' | 'clear' | 'close') => {
  if (message === 'bodies') {
    const accepted = server.requests.all().filter((request) => request.path === path && request.status === 202);
    send({ bodies: accepted.map((request) => request.body) });
  } else if (message === 'clear') {
    server.store.clear();
    server.requests.clear();
    send({ cleared: true });
  } else {
    void server.close().then(() => process.exit(0));
  }
});
send({ url: server.url });
