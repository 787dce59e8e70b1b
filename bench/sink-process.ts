/**
 * The sink of bench/sink.ts started in a child process of its own, so that its CPU and
 * memory are not the client's: the delivery benchmarks post to it on loopback.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The key the sink accepts. */
export const SINK_API_KEY = 'bench-key';
/** The one path the sink accepts: v2 trace_conversation, where the recorder sends. */
export const SINK_PATH = '/event-ingestion/api/v2/events/trace_conversation';

/** A running sink: its base URL, a call over IPC (a message, its answer), and its process. */
export interface Sink {
  url: string;
  call: <T>(message: string) => Promise<T>;
  child: ChildProcess;
}

/**
 * Starts the sink and resolves once it listens.
 *
 * @example
 * ```ts
 * const sink = await startSink();
 * const { count } = await sink.call<{ count: number }>('count');
 * sink.child.send('close');
 * ```
 */
export async function startSink(): Promise<Sink> {
  const child = fork(fileURLToPath(new URL('sink.ts', import.meta.url)), [SINK_API_KEY, SINK_PATH], {
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
  };
}
