import { describe } from 'vitest';
import { createReferenceServer } from '../../src/reference-server/index.js';
import { defineContractCases } from './cases.js';
import { toTarget } from './target.js';

describe('contract: live reference server (127.0.0.1, real sockets)', () => {
  defineContractCases(async (options) => {
    const server = await createReferenceServer({ ...options, port: 0 });
    return toTarget(server.url, server, () => server.close());
  });
});
