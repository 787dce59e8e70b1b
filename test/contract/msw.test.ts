import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import { createHandlers } from '../../src/reference-server/msw.js';
import { defineContractCases } from './cases.js';
import { toTarget } from './target.js';

const BASE_URL = 'https://backend.nebuly.com';

describe('contract: MSW handlers (setupServer)', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  defineContractCases(async (options) => {
    const reference = createHandlers(options);
    server.resetHandlers(...reference.handlers);
    const target = toTarget(BASE_URL, reference, async () => server.resetHandlers());
    // Through fetch, which MSW intercepts with aborts: on Node the client's own transport
    // is node:http, whose aborted requests MSW never shows its handlers (the live-server
    // suite runs that transport).
    const viaFetch = (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init);
    return { ...target, client: (apiKey, options = {}) => target.client(apiKey, { fetch: viaFetch, ...options }) };
  });
});
