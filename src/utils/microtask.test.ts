import { describe, expect, it } from 'vitest';
import { microtask } from './microtask.js';

describe('microtask', () => {
  it('runs after the caller’s synchronous work, before any timer, in order with other microtasks', async () => {
    const ran: string[] = [];
    setTimeout(() => ran.push('timer'), 0);
    microtask(() => ran.push('first'));
    queueMicrotask(() => ran.push('queued'));
    microtask(() => ran.push('second'));
    ran.push('sync');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toEqual(['sync', 'first', 'queued', 'second', 'timer']);
  });
});
