/**
 * How the integration benches time an observation: the same calls through the unwrapped
 * and the observed client, one of each in turn, so that both kinds see the same
 * conditions. Overhead = lower quartile observed − lower quartile unwrapped: other
 * processes only ever add time to a sample, and on a shared machine they add it to most
 * multi-millisecond samples (a stream's median moves by 20 µs per chunk between runs); the
 * lower quartile is what the code costs when left alone. Medians are reported beside.
 */

/** Quartiles of the timed calls, µs per call or per chunk. */
export interface Timing {
  p25: number;
  median: number;
  p75: number;
}

/** One observation's figures: µs per call and per streamed chunk, unwrapped and observed. */
export interface Overhead {
  plainCallUs: Timing;
  observedCallUs: Timing;
  /** µs the observation adds to one non-streamed call (lower quartiles). */
  overheadUsPerCall: number;
  plainChunkUs: Timing;
  observedChunkUs: Timing;
  /** µs the observation adds per streamed chunk, the call's own overhead spread over them (lower quartiles). */
  overheadUsPerChunk: number;
}

/** Quartiles of durations in ms, as µs per `per` (call or chunk). */
export function timing(valuesMs: number[], per = 1): Timing {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  const at = (q: number) => Number((((sorted[Math.floor(sorted.length * q)] ?? Number.NaN) * 1000) / per).toFixed(2));
  return { p25: at(0.25), median: at(0.5), p75: at(0.75) };
}

/** How long `run` takes, ms. */
export async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** What {@link measureOverhead} times, and how much. */
export interface Measured<Client> {
  plain: Client;
  /** The observed client of the current conversation. */
  observed: () => Client;
  call: (client: Client) => Promise<unknown>;
  stream: (client: Client) => Promise<unknown>;
  /** Sends the conversation and starts the next. */
  rotate: () => Promise<void>;
  calls: number;
  streams: number;
  chunksPerStream: number;
  /** Calls recorded per conversation before it is rotated. */
  perConversation: number;
}

/**
 * Times `call` and `stream` through `plain` and `observed()` in turn, after a warm-up
 * that compiles both paths.
 *
 * @example
 * ```ts
 * const figures = await measureOverhead({ plain, observed: () => observed, call, stream, rotate, calls: 3000, streams: 1000, chunksPerStream: 50, perConversation: 50 });
 * ```
 */
export async function measureOverhead<Client>(m: Measured<Client>): Promise<Overhead> {
  for (let i = 0; i < 200; i += 1) {
    await m.call(m.plain);
    await m.call(m.observed());
    if (i % 4 === 0) {
      await m.stream(m.plain);
      await m.stream(m.observed());
    }
  }
  await m.rotate();
  const samples = async (count: number, run: (client: Client) => Promise<unknown>) => {
    const plain: number[] = [];
    const observed: number[] = [];
    for (let i = 0; i < count; i += 1) {
      plain.push(await time(() => run(m.plain)));
      observed.push(await time(() => run(m.observed())));
      if ((i + 1) % m.perConversation === 0) await m.rotate();
    }
    return { plain, observed };
  };
  const calls = await samples(m.calls, m.call);
  const streams = await samples(m.streams, m.stream);
  const plainCallUs = timing(calls.plain);
  const observedCallUs = timing(calls.observed);
  const plainChunkUs = timing(streams.plain, m.chunksPerStream);
  const observedChunkUs = timing(streams.observed, m.chunksPerStream);
  return {
    plainCallUs,
    observedCallUs,
    overheadUsPerCall: Number((observedCallUs.p25 - plainCallUs.p25).toFixed(2)),
    plainChunkUs,
    observedChunkUs,
    overheadUsPerChunk: Number((observedChunkUs.p25 - plainChunkUs.p25).toFixed(2)),
  };
}
