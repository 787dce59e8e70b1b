import { MAX_TIMER_DELAY_MS } from '../utils/timer-limit.js';
import { checkOptions, OptionSpec, problem, typeName } from './option-checks.js';
import type { ModelPrice } from './model-price.js';

// The kinds of value an option can take, each with the words of its message: every
// table of options (options of the client, the recorder, a call) is made of these.

/**
 * A value that passes when `test` does; `what` completes "must be …".
 *
 * @example
 * ```ts
 * const signal = valueOf<AbortSignal>('an AbortSignal', isAbortSignal);
 * ```
 */
export function valueOf<T>(what: string, test: (value: unknown) => boolean): OptionSpec<T> {
  return new OptionSpec<T>((value, context) => {
    if (!test(value)) problem(context, `must be ${what}`);
    return value as T;
  });
}

/**
 * A string option.
 *
 * @example
 * ```ts
 * const apiKey = text().env('NEBULY_API_KEY');
 * ```
 */
export const text = (): OptionSpec<string> => typed<string>('string', 'a string');
/**
 * A function option.
 *
 * @example
 * ```ts
 * const onError = func<(error: NebulyError) => void>();
 * ```
 */
export const func = <F>(): OptionSpec<F> => typed<F>('function', 'a function');
/**
 * A boolean option.
 *
 * @example
 * ```ts
 * const sendOnExit = flag().or(true);
 * ```
 */
export const flag = (): OptionSpec<boolean> => valueOf<boolean>('true or false', (value) => typeof value === 'boolean');

function typed<T>(type: 'string' | 'function', what: string): OptionSpec<T> {
  return new OptionSpec<T>((value, context) => {
    if (typeof value !== type || value === null) problem(context, `must be ${what} (got ${typeName(value)})`);
    return value as T;
  });
}

/**
 * One of a few strings.
 *
 * @example
 * ```ts
 * const delivery = oneOf(['conversation', 'interaction'] as const).or('conversation');
 * ```
 */
export function oneOf<const V extends string>(values: readonly V[]): OptionSpec<V> {
  return valueOf<V>(values.map((value) => `'${value}'`).join(' or '), (value) => values.includes(value as V));
}

/**
 * The range and kind of a numeric option.
 *
 * @example
 * ```ts
 * const range: NumberRange = { min: 1, whole: true, orInfinity: true };
 * ```
 */
export interface NumberRange {
  min: number;
  /** Without one, `Infinity` is a number like any other (for durations: never). */
  max?: number;
  /** A whole number; `Infinity` too with `orInfinity`. */
  whole?: boolean;
  orInfinity?: boolean;
  /** What the number counts, for the message: `milliseconds`. */
  unit?: string;
  /** Said after the range: what the option means. */
  hint?: string;
}

/**
 * A number in a range, whose message says the range: `must be a whole number, 1 or
 * more` (`zero or more`, as the schemas say), `must be a number of milliseconds from 0 to 2147483647`.
 *
 * @example
 * ```ts
 * const maxRetries = number({ min: 0, whole: true }).or(4);
 * ```
 */
export function number(range: NumberRange): OptionSpec<number> {
  const { min, max, whole = false, orInfinity = false, unit, hint } = range;
  const kind = `${whole ? 'a whole number' : 'a number'}${unit === undefined ? '' : ` of ${unit}`}${orInfinity ? ' or Infinity' : ''}`;
  const what = `${kind}${max === undefined ? `, ${min === 0 ? 'zero' : min} or more` : ` from ${min} to ${max}`}${hint === undefined ? '' : ` (${hint})`}`;
  return valueOf<number>(what, (value) => {
    if (typeof value !== 'number' || Number.isNaN(value) || value < min || (max !== undefined && value > max)) return false;
    return !whole || Number.isInteger(value) || (orInfinity && value === Number.POSITIVE_INFINITY);
  });
}

/**
 * A duration that a timer waits, in milliseconds.
 *
 * @example
 * ```ts
 * const retryDelayMs = milliseconds().or(250);
 * ```
 */
export const milliseconds = (): OptionSpec<number> => number({ min: 0, max: MAX_TIMER_DELAY_MS, unit: 'milliseconds' });

/** A price in US dollars per million tokens. */
const usdPerMillion = (): OptionSpec<number> => number({ min: 0, unit: 'US dollars per million tokens' });

/** The fields of a {@link ModelPrice}; `input` and `output` are required (checked apart). */
const PRICE_FIELDS = { input: usdPerMillion(), cachedInput: usdPerMillion(), cacheWrite: usdPerMillion(), output: usdPerMillion() };

/**
 * Prices by model name (`modelPrices`): an object whose keys are model names and whose
 * values are {@link ModelPrice}s, each problem at its path (`modelPrices["gpt-4o"].output`).
 *
 * @example
 * ```ts
 * const modelPrices = prices().or({});
 * ```
 */
export function prices(): OptionSpec<Readonly<Record<string, ModelPrice>>> {
  return new OptionSpec((value, context) => {
    const checked: Record<string, ModelPrice> = {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problem(context, `must be an object of model names to prices (got ${Array.isArray(value) ? 'an array' : typeName(value)})`);
      return checked;
    }
    let entries: [string, unknown][];
    try {
      entries = Object.entries(value);
    } catch {
      problem(context, 'could not be read (a getter or Proxy threw)');
      return checked;
    }
    for (const [model, price] of entries) {
      const at = { ...context, path: [...context.path, model] };
      if (model.trim() === '') problem(at, 'is an empty model name');
      if (typeof price !== 'object' || price === null) {
        problem(at, `must be a price { input, output, cachedInput?, cacheWrite? } in US dollars per million tokens (got ${typeName(price)})`);
        continue;
      }
      const before = at.issues.length;
      const fields = checkOptions(price, PRICE_FIELDS, at, 'a price field');
      // A price already found wrong says so; one that is right so far must name both rates.
      for (const required of ['input', 'output'] as const) {
        if (at.issues.length === before && fields[required] === undefined) {
          problem({ ...at, path: [...at.path, required] }, 'is required: US dollars per million tokens');
        }
      }
      checked[model] = fields as ModelPrice;
    }
    return checked;
  });
}
