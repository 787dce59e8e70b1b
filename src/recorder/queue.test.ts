import { describe, expect, it } from 'vitest';
import { BoundedQueue } from './queue.js';

const item = (id: number, bytes = 10) => ({ id, bytes });

describe('BoundedQueue', () => {
  it('is first in, first out', () => {
    const queue = new BoundedQueue<{ id: number; bytes: number }>({ maxItems: 10, maxBytes: 1000 });
    for (let id = 0; id < 5; id += 1) expect(queue.tryAdd(item(id))).toEqual({ added: true });
    const first = [queue.take(), queue.take()];
    expect(first.map((taken) => taken?.id)).toEqual([0, 1]);
    expect(queue.size).toBe(3);
    const rest = queue.takeAll();
    expect(rest.map((taken) => taken.id)).toEqual([2, 3, 4]);
    expect(queue.take()).toBeUndefined();
    for (const taken of [...first, ...rest]) queue.release(taken!);
    expect(queue.bytes).toBe(0);
  });

  it('counts a taken item against the byte bound until it is released', () => {
    const queue = new BoundedQueue<{ id: number; bytes: number }>({ maxItems: 10, maxBytes: 100 });
    queue.tryAdd(item(1, 60));
    const taken = queue.take()!;
    expect(queue.size).toBe(0);
    expect(queue.bytes).toBe(60);
    expect(queue.tryAdd(item(2, 60))).toEqual({ added: false, limit: 'maxBytes' });
    queue.release(taken);
    expect(queue.tryAdd(item(2, 60))).toEqual({ added: true });
  });

  it('refuses past the count bound, and takes again once there is room', () => {
    const queue = new BoundedQueue<{ id: number; bytes: number }>({ maxItems: 2, maxBytes: 1000 });
    queue.tryAdd(item(1));
    queue.tryAdd(item(2));
    expect(queue.tryAdd(item(3))).toEqual({ added: false, limit: 'maxItems' });
    queue.take();
    expect(queue.tryAdd(item(3))).toEqual({ added: true });
  });

  it('refuses what would pass the byte bound', () => {
    const queue = new BoundedQueue<{ id: number; bytes: number }>({ maxItems: 10, maxBytes: 100 });
    expect(queue.tryAdd(item(1, 60))).toEqual({ added: true });
    expect(queue.tryAdd(item(2, 41))).toEqual({ added: false, limit: 'maxBytes' });
    expect(queue.tryAdd(item(3, 40))).toEqual({ added: true });
    expect(queue.bytes).toBe(100);
  });

  it('stays in order across many adds and takes', () => {
    const queue = new BoundedQueue<{ id: number; bytes: number }>({ maxItems: 100_000, maxBytes: Number.POSITIVE_INFINITY });
    const taken: number[] = [];
    let next = 0;
    for (let round = 0; round < 50; round += 1) {
      for (let i = 0; i < 100; i += 1) queue.tryAdd(item(next++, 1));
      for (let i = 0; i < 60; i += 1) taken.push(queue.take()?.id ?? -1);
    }
    while (queue.size > 0) taken.push(queue.take()?.id ?? -1);
    expect(taken).toEqual(Array.from({ length: next }, (_, id) => id));
  });
});
