import { describe, expect, it } from 'vitest';
import { isThenable } from './thenable.js';

describe('isThenable', () => {
  it('is true of promises and of any object with a then method, false of values', () => {
    expect(isThenable(Promise.resolve(1))).toBe(true);
    expect(isThenable({ then: (resolve: (value: number) => void) => resolve(1) } as unknown)).toBe(true);
    for (const value of [undefined, null, 0, 'then', {}, { then: 1 }, [1]]) expect(isThenable(value)).toBe(false);
  });
});
