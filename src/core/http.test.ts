import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveClientOptions } from './resolve-options.js';

afterEach(() => {
  vi.doUnmock('./typed-call.js');
  vi.doUnmock('./http-engine.js');
  vi.resetModules();
});

describe('HttpCore.call', () => {
  it('rejects bad request options before it loads the engine or the typed call', async () => {
    const loaded: string[] = [];
    vi.doMock('./typed-call.js', () => {
      loaded.push('typed-call');
      throw new Error('not to be loaded');
    });
    vi.doMock('./http-engine.js', () => {
      loaded.push('http-engine');
      throw new Error('not to be loaded');
    });
    const { HttpCore } = await import('./http.js');
    const http = new HttpCore(resolveClientOptions({ apiKey: 'the-key' }));
    await expect(http.call('listEligibleUsers', undefined, { timeoutMs: -1 })).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^Invalid request options: timeoutMs must be/),
    });
    await expect(http.call('deleteEligibleUsers', { users: ['u-1'] }, { retries: 1 } as never)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('retries is not a request option; did you mean `maxRetries`?'),
    });
    expect(loaded).toEqual([]);
  });
});
