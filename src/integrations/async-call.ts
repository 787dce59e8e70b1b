/**
 * How one call of a provider SDK that answers with a plain promise (`@google/genai`, the
 * AWS SDK's `client.send`) is observed: the SDK's own promise goes back to the caller
 * untouched, its result or error is read beside it, and a streamed answer's async
 * iterator is observed in place, so that the caller keeps the SDK's own stream object.
 * The Stainless clients (OpenAI, Anthropic) have their own path: provider/observe.ts.
 *
 * Nothing here ever throws into the caller's code: each observation runs in a guard whose
 * faults go to `onError` through the call.
 */
import { checkTestedVersion } from './diagnostics.js';
import { ModelCall } from './model-call.js';
import { type ClientVersion, observeIterator } from './provider/observe.js';
import type { CallRecording } from './provider/recording.js';
import { beginCall, type TargetChoice } from './target.js';

/**
 * What the observation needs to know of one call, besides its recording.
 * @example
 * ```ts
 * const call: AsyncCall = { streamOf: (result) => field(result, 'stream'), signal: options?.abortSignal };
 * ```
 */
export interface AsyncCall {
  /** The async iterable a streamed call's result carries (the result itself for `@google/genai`). */
  streamOf(result: unknown): unknown;
  /** The caller's abort signal: a stream that ends once it fired was aborted. */
  signal: AbortSignal | undefined;
}

/** The methods of an async iterator, as the caller's object carries them. */
interface IteratorShape {
  next: (...args: unknown[]) => Promise<IteratorResult<unknown>>;
  return?: (value?: unknown) => Promise<IteratorResult<unknown>>;
  throw?: (error?: unknown) => Promise<IteratorResult<unknown>>;
}

function isIterator(value: object): value is IteratorShape {
  return typeof (value as Partial<IteratorShape>).next === 'function';
}

/**
 * Observes the caller's own stream object in place. An async generator (`@google/genai`)
 * gets its `next`, `return` and `throw` replaced, so that both `for await` and direct
 * `next()` calls are seen; an async iterable that is no iterator (the AWS SDK's event
 * stream) gets its `Symbol.asyncIterator` replaced. Returns whether it could.
 */
function observeStream(stream: unknown, call: AsyncCall, recording: CallRecording, end: ModelCall): boolean {
  if (typeof stream !== 'object' || stream === null) return false;
  const owner = stream as Record<PropertyKey, unknown>;
  if (isIterator(stream)) {
    const inner: AsyncIterator<unknown> = {
      next: stream.next.bind(stream),
      ...(stream.return === undefined ? {} : { return: stream.return.bind(stream) }),
      ...(stream.throw === undefined ? {} : { throw: stream.throw.bind(stream) }),
    };
    const observed = observeIterator(inner, recording.stream(), end, call.signal);
    end.streaming();
    owner.next = observed.next;
    owner.return = observed.return;
    owner.throw = observed.throw;
    return true;
  }
  const iterate = owner[Symbol.asyncIterator];
  if (typeof iterate !== 'function') return false;
  owner[Symbol.asyncIterator] = () => {
    const inner = (iterate as () => AsyncIterator<unknown>).call(stream);
    try {
      const collector = recording.stream();
      end.streaming();
      return observeIterator(inner, collector, end, call.signal);
    } catch (error) {
      // Runs when the caller starts reading: a fault here must not reach them.
      end.call.fault(error, 'observing a stream');
      end.drop();
      return inner;
    }
  };
  return true;
}

/**
 * Calls `run` (the SDK's method, as the caller called it) and observes the call into
 * `target`: `begin` reads the request; the result is recorded when the promise settles,
 * or, for a streamed call, when its stream ends, is left, or fails. Returns exactly what
 * `run` returned (or throws what it threw).
 * @example
 * ```ts
 * return observeAsyncCall(target, version, () => recordingOf(params), () => original(params), { streamOf: (result) => result, signal });
 * ```
 */
export function observeAsyncCall(
  target: TargetChoice,
  client: ClientVersion,
  begin: () => CallRecording,
  run: () => unknown,
  call: AsyncCall,
): unknown {
  let recording: CallRecording | undefined;
  let end: ModelCall | undefined;
  try {
    recording = begin();
  } catch (error) {
    // The request could not be read: the call goes on, unrecorded, and the fault is
    // reported through a call of its own (a turn target records nothing for it).
    const failed = beginCall(target, {});
    failed.fault(error, 'reading the request');
    failed.end({});
  }
  if (recording !== undefined) {
    try {
      end = new ModelCall(beginCall(target, { input: recording.input, toolRuns: recording.toolRuns }));
      checkTestedVersion(end.call.client, client.framework, client.version);
    } catch (error) {
      end?.call.fault(error, 'beginning the call');
    }
  }
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    if (recording !== undefined) end?.finish(() => recording.failed(error));
    throw error;
  }
  if (recording === undefined || end === undefined || !(result instanceof Promise)) {
    end?.drop();
    return result;
  }
  const observed = recording;
  const ending = end;
  // A handler of its own: the caller's promise still rejects, unhandled if nobody awaits it, as it did.
  result.then(
    (data: unknown) => {
      if (!observed.streams) {
        ending.finish(() => observed.complete(data));
        return;
      }
      try {
        if (!observeStream(call.streamOf(data), call, observed, ending)) ending.drop();
      } catch (error) {
        ending.call.fault(error, 'observing a stream');
        ending.drop();
      }
    },
    (error: unknown) => ending.finish(() => observed.failed(error)),
  );
  return result;
}
