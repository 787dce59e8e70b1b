import { describe, expect, it } from 'vitest';
import { fingerprintOf, IDEMPOTENCY_MAX_KEYS, IDEMPOTENCY_WINDOW_MS, IdempotencyAnswers } from './idempotency.js';

const answer = (at: number) => ({ fingerprint: 'f', status: 202, body: '{}', contentType: 'application/json', at });

describe('IdempotencyAnswers', () => {
  it('recalls an answer for 24 hours by its clock, per project', () => {
    let now = 0;
    const answers = new IdempotencyAnswers(() => now);
    answers.remember('a', 'k', answer(0));
    expect(answers.recall('a', 'k')?.status).toBe(202);
    expect(answers.recall('b', 'k')).toBeUndefined();
    now = IDEMPOTENCY_WINDOW_MS - 1;
    expect(answers.recall('a', 'k')).toBeDefined();
    now = IDEMPOTENCY_WINDOW_MS;
    expect(answers.recall('a', 'k')).toBeUndefined();
  });

  it(`remembers at most ${IDEMPOTENCY_MAX_KEYS.toLocaleString('en-US')} keys, forgetting the oldest first`, () => {
    const answers = new IdempotencyAnswers(() => 0);
    for (let index = 0; index <= IDEMPOTENCY_MAX_KEYS; index += 1) answers.remember('p', `k-${index}`, answer(0));
    expect(answers.recall('p', 'k-0')).toBeUndefined();
    expect(answers.recall('p', 'k-1')).toBeDefined();
    expect(answers.recall('p', `k-${IDEMPOTENCY_MAX_KEYS}`)).toBeDefined();
  });

  it('fingerprints a body with SHA-256', async () => {
    expect(await fingerprintOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
