import { describe, expect, it } from 'vitest';
import { RECORDER_DEFAULTS, resolveRecorderOptions } from './recorder-options.js';

describe('resolveRecorderOptions', () => {
  it('fills in every default', () => {
    const resolved = resolveRecorderOptions();
    expect({ ...resolved, now: undefined }).toEqual({ ...RECORDER_DEFAULTS, now: undefined });
    expect(resolved.maxConversationBytes).toBe(500_000);
  });

  it('keeps what is given', () => {
    const now = () => 42;
    expect(resolveRecorderOptions({ idleTimeoutMs: 0, maxConcurrentSends: 1, now })).toMatchObject({
      idleTimeoutMs: 0,
      maxConcurrentSends: 1,
      now,
    });
    expect(resolveRecorderOptions({ shutdownTimeoutMs: Number.POSITIVE_INFINITY }).shutdownTimeoutMs).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(resolveRecorderOptions({ maxOpenConversations: Number.POSITIVE_INFINITY, sendOnExit: false })).toMatchObject({
      maxOpenConversations: Number.POSITIVE_INFINITY,
      sendOnExit: false,
    });
  });

  it.each([
    [{ maxConcurrentSends: 0 }, /maxConcurrentSends/],
    [{ maxConcurrentSends: 1.5 }, /maxConcurrentSends/],
    [{ maxQueuedConversations: 0 }, /maxQueuedConversations/],
    [{ maxQueuedConversations: 2.5 }, /maxQueuedConversations` must be a whole number or Infinity/],
    [{ maxOpenConversations: 0 }, /maxOpenConversations/],
    [{ sendOnExit: 'yes' as unknown as boolean }, /sendOnExit/],
    [{ maxQueuedBytes: -1 }, /maxQueuedBytes/],
    [{ maxConversationBytes: Number.NaN }, /maxConversationBytes/],
    [{ idleTimeoutMs: -5 }, /idleTimeoutMs/],
    [{ shutdownTimeoutMs: -1 }, /shutdownTimeoutMs/],
    [{ now: 5 as unknown as () => number }, /now/],
  ])('rejects %o', (options, message) => {
    expect(() => resolveRecorderOptions(options)).toThrow(message);
  });

  it('reads the clock through Date on each call, so fake timers move it', () => {
    const realNow = Date.now;
    try {
      Date.now = () => 1234;
      expect(RECORDER_DEFAULTS.now()).toBe(1234);
    } finally {
      Date.now = realNow;
    }
  });
});
