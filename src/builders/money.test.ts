import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { usdToMicroDollars } from './money.js';

describe('usdToMicroDollars', () => {
  it('rounds dollars to whole micro-dollars', () => {
    expect(usdToMicroDollars(0.000012)).toBe(12);
    expect(usdToMicroDollars(0)).toBe(0);
    expect(usdToMicroDollars(1)).toBe(1_000_000);
    expect(usdToMicroDollars(0.0000004)).toBe(0);
    expect(usdToMicroDollars(0.0000005)).toBe(1);
    expect(usdToMicroDollars(12.345678)).toBe(12_345_678);
  });

  it.each([-0.01, Number.NaN, Number.POSITIVE_INFINITY, 1e12])('rejects %s', (usd) => {
    expect(() => usdToMicroDollars(usd)).toThrow(ValidationError);
    expect(() => usdToMicroDollars(usd)).toThrow(/usd must be a finite number/);
  });

  it('rejects what is not a number', () => {
    expect(() => usdToMicroDollars('1' as unknown as number)).toThrow(ValidationError);
  });
});
