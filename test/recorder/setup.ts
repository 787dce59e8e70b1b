import { afterEach, beforeEach, vi } from 'vitest';
import type { NebulyError } from '../../src/core/errors.js';
import type { RecorderOptions } from '../../src/core/recorder-options.js';
import type { ConversationOutcome } from '../../src/recorder/outcome.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { FakeTransport } from './fake-transport.js';
// The recorder loads its stages with `import()` at their first use (lazy-stages.ts). Loaded
// here, that import resolves within a few microtasks: a test's `settle()` does not have
// to outwait a cold module transform.
// src/recorder/lazy-stages.test.ts covers what happens before they are loaded.
import '../../src/recorder/sending.js';

/** The start of the test clock: 2026-05-01T10:00:00.000Z. */
export const T0 = Date.parse('2026-05-01T10:00:00.000Z');

/** Fake timers and `Date` for every test of the file, starting at {@link T0}. */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** A clock the test moves by hand. */
export function manualClock(start = T0) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

/** A recorder over a {@link FakeTransport}, with the errors it reported collected. */
export function setup(options: RecorderOptions = {}) {
  const transport = new FakeTransport();
  const errors: NebulyError[] = [];
  const recorder = new Recorder({ http: transport, onError: (error) => errors.push(error), options });
  return { transport, errors, recorder };
}

/** The `code`s (or names) of the reported errors, in order. */
export function kinds(errors: readonly NebulyError[]): string[] {
  return errors.map((error) => ('code' in error && typeof error.code === 'string' ? error.code : error.name));
}

/**
 * Lets the recorder's background work run: its microtasks, and the slices it gives the
 * host between (`setImmediate`, which fake timers leave alone).
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i += 1) {
    for (let j = 0; j < 20; j += 1) await Promise.resolve();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Starts, records one interaction in, and ends a conversation; returns its outcome. */
export function oneTurn(recorder: Recorder, input = 'q'): Promise<ConversationOutcome> {
  const conversation = recorder.startConversation({ end_user: 'u', conversation_id: input });
  conversation.interaction({ input }).end({ output: 'a' });
  return conversation.end();
}

/**
 * Lets the recorder's background work run until `condition` holds (at least 2,000 turns
 * of the event loop, and up to 10 s of real time): for tests that wait for requests to
 * reach the transport, however many slices the work takes on a busy machine, and however
 * long a module the recorder loads on first use (zod, to describe an invalid interaction)
 * takes to load in a cold test run. The fake clock leaves `performance` alone.
 */
export async function until(condition: () => boolean): Promise<void> {
  const started = performance.now();
  for (let turn = 0; (turn < 2_000 || performance.now() - started < 10_000) && !condition(); turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!condition()) throw new Error('the condition never held');
}
