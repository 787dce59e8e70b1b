import { afterEach, expect, it, vi } from 'vitest';
import { NebulyClient } from '../../src/index.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

// Issue 20.3: what the first request can create is not created at construction. On Node,
// `new Headers` loads the fetch implementation (undici), about 20 ms of a cold start.
it('constructs a client without touching Headers, Request or fetch', () => {
  const touched: string[] = [];
  for (const name of ['Headers', 'Request', 'Response', 'fetch']) {
    vi.stubGlobal(name, () => {
      touched.push(name);
      throw new Error(`${name} used at construction`);
    });
  }
  const nebuly = new NebulyClient({ apiKey: 'k-123456', baseUrl: 'http://127.0.0.1:9', headers: { 'x-team': 'search' } });
  expect(nebuly).toBeInstanceOf(NebulyClient);
  expect(touched).toEqual([]);
});

it('still refuses, at construction, a client header that HTTP cannot carry, without quoting it', () => {
  expect(() => new NebulyClient({ apiKey: 'k-123456', headers: { 'x-token': 'secret\nvalue' } })).toThrow(
    '`headers` has a name or value an HTTP header cannot carry',
  );
});
