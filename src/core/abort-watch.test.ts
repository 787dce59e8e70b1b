import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchAttempt } from './attempt.js';
import { watchAbort } from './abort-watch.js';
import { wait } from './retry.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('watchAbort', () => {
  it('listens to a signal once however many watch it, and tells each watcher still watching', () => {
    const controller = new AbortController();
    const told: string[] = [];
    const unwatches = Array.from({ length: 50 }, (_, n) => watchAbort(controller.signal, (reason) => told.push(`${n}:${String(reason)}`)));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (const unwatch of unwatches.slice(0, 48)) unwatch();
    controller.abort('deadline');
    expect(told).toEqual(['48:deadline', '49:deadline']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('tells nobody once every watch has stopped', () => {
    const controller = new AbortController();
    const watcher = vi.fn();
    watchAbort(controller.signal, watcher)();
    controller.abort('late');
    expect(watcher).not.toHaveBeenCalled();
  });

  it('keeps the watchers of different signals apart', () => {
    const first = new AbortController();
    const second = new AbortController();
    const onFirst = vi.fn();
    const onSecond = vi.fn();
    watchAbort(first.signal, onFirst);
    watchAbort(second.signal, onSecond);
    first.abort('one');
    expect(onFirst).toHaveBeenCalledWith('one');
    expect(onSecond).not.toHaveBeenCalled();
  });
});

describe('one signal shared by many attempts and retry waits', () => {
  it('ends each with its reason through a single listener, and leaves no timer', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const stopped: unknown[] = [];
    const unwatches = Array.from({ length: 20 }, () => watchAttempt(30_000, controller.signal, (reason) => stopped.push(reason)));
    const waits = Array.from({ length: 20 }, () => wait(60_000, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort('shutdown');
    await Promise.all(waits.map((waiting) => expect(waiting).rejects.toBe('shutdown')));
    expect(stopped).toEqual(Array.from({ length: 20 }, () => 'shutdown'));
    for (const unwatch of unwatches) unwatch();
    expect(vi.getTimerCount()).toBe(0);
  });
});
