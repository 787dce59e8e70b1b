/**
 * The delivery benchmark's server, in a process of its own so that its CPU is not the
 * client's: a bare keep-alive `node:http` server on loopback that checks the key and the
 * path, keeps each body and answers 202 `{"status":"accepted"}` as the service does.
 *
 * Bare on purpose: the benchmark measures the client, and the reference server (which
 * validates and stores every conversation through web `Request`s) takes about as much CPU
 * per request as a `fetch` client does, so on two cores it set the pace of both sides
 * alike. The bodies are checked against the wire schema by bench/delivery.ts instead,
 * outside the timed rounds.
 *
 * Driven over IPC: it answers `{ url }` once listening, then `bodies` (the bodies accepted
 * since the last `clear`), `count` (how many), `headers` (the distinct lists of header
 * names they came with, sorted), `cpu` (its CPU time since then, µs), `clear` and `close`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [apiKey = 'bench-key', path = ''] = process.argv.slice(2);
if (process.send === undefined) throw new Error('run by bench/delivery.ts with an IPC channel');
const send = process.send.bind(process);

const ACCEPTED = JSON.stringify({ status: 'accepted' });
let bodies: string[] = [];
let headerNames = new Set<string>();
let cpu = process.cpuUsage();

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const answer = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (request.headers.authorization !== `Bearer ${apiKey}`) return answer(401, '{"detail":"Invalid API key"}');
    if (request.method !== 'POST' || request.url !== path) return answer(404, '{"detail":"Not Found"}');
    bodies.push(Buffer.concat(chunks).toString('utf8'));
    headerNames.add(Object.keys(request.headers).sort().join(','));
    answer(202, ACCEPTED);
  });
});

process.on('message', (message: 'bodies' | 'count' | 'headers' | 'clear' | 'cpu' | 'close') => {
  if (message === 'bodies') {
    send({ bodies });
  } else if (message === 'count') {
    send({ count: bodies.length });
  } else if (message === 'headers') {
    send({ headers: [...headerNames] });
  } else if (message === 'clear') {
    bodies = [];
    headerNames = new Set();
    cpu = process.cpuUsage();
    send({ cleared: true });
  } else if (message === 'cpu') {
    const { user, system } = process.cpuUsage(cpu);
    send({ cpuUs: user + system });
  } else {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

server.listen(0, '127.0.0.1', () => {
  send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
