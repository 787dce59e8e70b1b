/**
 * What the provider mappings (openai/, anthropic/) give the observation of a call
 * (observe.ts): how a method's request reads, and what a finished call records.
 */
import type { Finished } from '../model-call.js';
import type { ToolRun } from '../tool-runs.js';

export type { Finished } from '../model-call.js';

/**
 * How a stream ended.
 * @example
 * ```ts
 * recording.finish({ kind: 'failed', error });
 * ```
 */
export type Ending =
  | { kind: 'complete' }
  /** The caller stopped reading (`break`, `return()`) or aborted the request. */
  | { kind: 'aborted' }
  | { kind: 'failed'; error: unknown };

/**
 * Collects a stream's chunks into what is recorded when it ends.
 * @example
 * ```ts
 * const recording = call.stream();
 * for (const chunk of chunks) recording.add(chunk);
 * const finished = recording.finish({ kind: 'complete' });
 * ```
 */
export interface StreamRecording {
  add(chunk: unknown): void;
  finish(ending: Ending): Finished;
}

/**
 * What an observed method knows of one call, from its request parameters.
 * @example
 * ```ts
 * const recording = observer.begin(params);
 * const finished = recording.streams ? recording.stream().finish(ending) : recording.complete(result);
 * ```
 */
export interface CallRecording {
  /** The interaction's input when the call is a turn of its own. */
  input: string | undefined;
  /** The tool results the request ends with: the call continues the interaction that asked for them. */
  toolRuns: readonly ToolRun[];
  /** The request carries no user message (an embedding): see `CallStart.aside`. */
  aside?: boolean | undefined;
  /** Whether the call streams its answer. */
  streams: boolean;
  /** The parsed result of a call that does not stream. */
  complete(result: unknown): Finished;
  /** A new collector for a streamed answer. */
  stream(): StreamRecording;
  /** The call failed before a result (the provider's error, a network error). */
  failed(error: unknown): Finished;
}

/**
 * A request `prepare` changed to ask the provider for more than the caller did, and how
 * to give the caller what their own request would have given.
 * @example
 * ```ts
 * const prepared: PreparedCall = { args: [{ ...params, stream_options: { include_usage: true } }], restore: withoutUsage };
 * ```
 */
export interface PreparedCall {
  /** The arguments to call the original method with: the caller's, or a changed copy. */
  args: unknown[];
  /**
   * Puts a streamed chunk, once recorded, back as the caller's request would have had it;
   * `false` for a chunk that request would not have had at all: recorded, not passed on.
   * Absent when the request was not changed.
   */
  restore?: ((chunk: unknown) => boolean) | undefined;
}

/**
 * Reads one call's request parameters; may change the request (`prepare`).
 * @example
 * ```ts
 * const methods = new Map<string, MethodObserver>([['messages.create', messagesObserver]]);
 * ```
 */
export interface MethodObserver {
  /** The request to send: the caller's, or a changed copy with what undoes the change. */
  prepare?(args: unknown[]): PreparedCall;
  begin(params: unknown): CallRecording;
}
