/**
 * One scenario of bench/blocking.ts that must start cold, run in a fresh process of its
 * own (`node --expose-gc --import tsx bench/cold-use.ts <mode> <url>`): the SDK imported
 * and a client made, then, on a collected heap, what the first use costs the host's event
 * loop. Nothing has loaded the recorder's lazy stages, the HTTP engine or the transport
 * yet, as in a server's first request.
 *
 * - `first`: one conversation of one turn, ended, and flushed to `url` (the sink).
 * - `burst10k`: 10,000 conversations of one turn each, ended in one synchronous loop by
 *   that cold client, then flushed: everything waiting for the stages to load drains after.
 *
 * Prints one JSON line: the loop's gaps ({@link LoopGaps}) from the end of the caller's
 * loop on, and what that loop took, ms: the main thread's CPU (`callMs`) and its wall
 * time (its calls are the SDK's too, but the loop is the caller's: for `first`, one call
 * of each kind).
 */
import { collectGarbage } from './heap.js';
import { timed, watchLoop } from './loop-watch.js';
import { loadSdk } from './sdk.js';

const [mode, url] = process.argv.slice(2);
if ((mode !== 'first' && mode !== 'burst10k') || url === undefined) throw new Error('usage: cold-use.ts first|burst10k <sink url>');

const sdk = await loadSdk();
const nebuly = new sdk.NebulyClient({ apiKey: 'bench-key', baseUrl: url, onError: () => undefined, recorder: { idleTimeoutMs: 0 } });
const count = mode === 'first' ? 1 : 10_000;
collectGarbage();
// The main thread's CPU of the caller's loop, as the gaps are counted, and its wall time.
const { ms: callMs, wallMs: callWallMs } = timed(() => {
  for (let i = 0; i < count; i += 1) {
    const conversation = nebuly.startConversation({ end_user: `user-${i}` });
    const turn = conversation.interaction({ input: `question ${i}` });
    turn.llm({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `question ${i}` }], output: `answer ${i}`, input_tokens: 10, output_tokens: 5 });
    turn.end({ output: `answer ${i}` });
    void conversation.end();
  }
});
// Watched from the end of the caller's own loop: what runs after it is the SDK's.
const loop = watchLoop();
const report = await nebuly.flush();
const gaps = await loop.stop();
await nebuly.shutdown();
if (report.delivered !== count) throw new Error(`${mode}: ${report.delivered} of ${count} delivered`);
console.log(JSON.stringify({ ...gaps, callMs, callWallMs }));
