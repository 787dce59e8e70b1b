import { afterEach, describe, expect, it, vi } from 'vitest';
import { asyncContext } from './async-context.js';

describe('asyncContext', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('on Node, follows awaits and timers: AsyncLocalStorage found through process.getBuiltinModule', async () => {
    const context = asyncContext<string>();
    expect(context.propagates).toBe(true);
    const seen = await context.run('user-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return context.get();
    });
    expect(seen).toBe('user-1');
    expect(context.get()).toBeUndefined();
  });

  it('where the runtime has no AsyncLocalStorage, holds only during the synchronous part of fn', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    const context = asyncContext<string>();
    expect(context.propagates).toBe(false);
    const seen = await context.run('user-1', async () => {
      const before = context.get();
      await Promise.resolve();
      return [before, context.get()];
    });
    expect(seen).toEqual(['user-1', undefined]);
  });
});
