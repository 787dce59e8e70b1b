import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The key and the path the sink accepts: the client's bench key, the bulk endpoint. */
export const SINK_API_KEY = 'bench-key';
export const SINK_PATH = '/event-ingestion/api/v2/events/trace_conversation';

/** The sink of bench/sink.ts, running in a process of its own, and how to talk to it. */
export interface Sink {
  url: string;
  child: ChildProcess;
  /** Sends a message (`bodies`, `cpu`, `clear`) and resolves with its answer. */
  call: <T>(message: string) => Promise<T>;
  /** Stops it, and resolves once it exited. */
  close: () => Promise<void>;
}

/**
 * Starts the sink (bench/sink.ts) in another process, so that its CPU is not the client's.
 *
 * @example
 * ```ts
 * const sink = await startSink();
 * // … post to sink.url …
 * await sink.close();
 * ```
 */
export async function startSink(apiKey = SINK_API_KEY, path = SINK_PATH): Promise<Sink> {
  const child = fork(fileURLToPath(new URL('sink.ts', import.meta.url)), [apiKey, path], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T)));
  const { url } = await next<{ url: string }>();
  return {
    url,
    child,
    call: <T>(message: string) => {
      const answer = next<T>();
      child.send(message);
      return answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}
