import { describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLE_KEY } from '../core/privacy-options.js';
import { createSampler, isSampled, sipKeyOf } from './sample.js';

const users = Array.from({ length: 20_000 }, (_, index) => `user-${index}`);

describe('the sampling decision', () => {
  it.each([0.01, 0.1, 0.25, 0.5, 0.9])('keeps close to a share of %s of many users', (rate) => {
    const sampled = createSampler({ sampleRate: rate, sampleKey: DEFAULT_SAMPLE_KEY });
    const share = users.filter(sampled).length / users.length;
    // Five standard deviations of a binomial share: a fair hash never misses.
    expect(Math.abs(share - rate)).toBeLessThan(5 * Math.sqrt((rate * (1 - rate)) / users.length));
  });

  it('keeps every user a lower rate kept: raising the rate only adds users', () => {
    const key = sipKeyOf(DEFAULT_SAMPLE_KEY);
    const low = users.filter((user) => isSampled(user, 0.1, key));
    expect(low.every((user) => isSampled(user, 0.3, key))).toBe(true);
  });

  it('gives the same answer for a user every time', () => {
    const first = createSampler({ sampleRate: 0.5, sampleKey: 'k' });
    const second = createSampler({ sampleRate: 0.5, sampleKey: 'k' });
    expect(users.slice(0, 1000).map(first)).toEqual(users.slice(0, 1000).map(second));
  });

  it('draws another sample under another key', () => {
    const a = createSampler({ sampleRate: 0.5, sampleKey: 'key-a' });
    const b = createSampler({ sampleRate: 0.5, sampleKey: 'key-b' });
    const agreeing = users.filter((user) => a(user) === b(user)).length / users.length;
    expect(agreeing).toBeGreaterThan(0.45);
    expect(agreeing).toBeLessThan(0.55);
  });

  it('keeps everyone at 1 and no one at 0', () => {
    expect(users.slice(0, 100).every(createSampler({ sampleRate: 1, sampleKey: 'k' }))).toBe(true);
    expect(users.slice(0, 100).some(createSampler({ sampleRate: 0, sampleKey: 'k' }))).toBe(false);
  });

  it('decides on the UTF-8 bytes of the user, so any string works', () => {
    const key = sipKeyOf('k');
    expect(isSampled('ünïcode-👤', 0.5, key)).toBe(isSampled('ünïcode-👤', 0.5, sipKeyOf('k')));
    expect(typeof isSampled('', 0.5, key)).toBe('boolean');
  });
});
