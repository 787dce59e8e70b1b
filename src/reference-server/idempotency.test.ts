import { describe, expect, it } from 'vitest';
import { fingerprintOf, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_WINDOW_MS, IdempotencyResponses } from './idempotency.js';

const response = (at: number) => ({ fingerprint: 'f', status: 202, body: '{}', contentType: 'application/json', at });

describe('IdempotencyResponses', () => {
  it('recalls a response for 24 hours by its clock, per project', () => {
    let now = 0;
    const responses = new IdempotencyResponses(() => now);
    responses.remember('a', 'k', response(0));
    expect(responses.recall('a', 'k')?.status).toBe(202);
    expect(responses.recall('b', 'k')).toBeUndefined();
    now = IDEMPOTENCY_WINDOW_MS - 1;
    expect(responses.recall('a', 'k')).toBeDefined();
    now = IDEMPOTENCY_WINDOW_MS;
    expect(responses.recall('a', 'k')).toBeUndefined();
  });

  it(`remembers at most ${IDEMPOTENCY_MAX_KEYS.toLocaleString('en-US')} keys, forgetting the oldest first`, () => {
    const responses = new IdempotencyResponses(() => 0);
    for (let index = 0; index <= IDEMPOTENCY_MAX_KEYS; index += 1) responses.remember('p', `k-${index}`, response(0));
    expect(responses.recall('p', 'k-0')).toBeUndefined();
    expect(responses.recall('p', 'k-1')).toBeDefined();
    expect(responses.recall('p', `k-${IDEMPOTENCY_MAX_KEYS}`)).toBeDefined();
  });

  it('fingerprints a body with SHA-256', async () => {
    expect(await fingerprintOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
