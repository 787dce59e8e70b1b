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
    return toTarget(BASE_URL, reference, async () => server.resetHandlers());
  });
});
