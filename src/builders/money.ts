import { ValidationError } from '../core/nebuly-error.js';

/** Micro-dollars in one US dollar: the unit of an LLM step's `cost`. */
export const MICRO_DOLLARS_PER_USD = 1_000_000;

/**
 * Converts US dollars to the integer micro-dollars of an LLM step's `cost`
 * (`Math.round(usd * 1_000_000)`), the way the service's own converters do.
 *
 * @throws ValidationError when `usd` is negative, not a finite number, or too large to
 * count exactly.
 *
 * @example
 * ```ts
 * usdToMicroDollars(0.000012); // 12
 * turn.llm({ model: 'gpt-4o', messages, output, cost: usdToMicroDollars(0.0031) });
 * ```
 */
export function usdToMicroDollars(usd: number): number {
  // Multiplied only once known to be a number: a BigInt would throw a TypeError of its own.
  const microDollars = typeof usd === 'number' ? Math.round(usd * MICRO_DOLLARS_PER_USD) : NaN;
  // `usd >= 0` is false for NaN; the safe-integer test catches Infinity and amounts
  // beyond 2^53 micro-dollars, which JSON could not carry exactly.
  if (typeof usd !== 'number' || !(usd >= 0) || !Number.isSafeInteger(microDollars)) {
    const got = typeof usd === 'number' ? String(usd) : typeof usd;
    throw new ValidationError(
      [{ path: ['usd'], message: `must be a finite number of dollars, zero or more (got ${got})`, code: 'custom' }],
      'argument',
    );
  }
  return microDollars;
}
