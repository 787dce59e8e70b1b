import { inspect } from 'node:util';
import fc from 'fast-check';

/**
 * The API key of every fuzzed client: distinctive, so that finding it anywhere it must
 * not be (a message, a property, a cause, inspect output, a log line) is unambiguous.
 */
export const KEY = 'nb-FUZZ-CANARY-3b9e7c1f0a2d4e6b';

/**
 * The seed and budget of every property: fixed, so a failure replays; raise them with
 * FUZZ_SEED / FUZZ_RUNS / FUZZ_TIME_MS for a longer hunt
 * (`FUZZ_RUNS=5000 FUZZ_TIME_MS=120000 npx vitest run test/fuzz --test-timeout=0`).
 */
export function runParameters(runs: number): fc.Parameters<unknown> {
  const seed = Number(process.env.FUZZ_SEED ?? 20_261_123);
  const numRuns = Number(process.env.FUZZ_RUNS ?? runs);
  // The time limit keeps the suite a few seconds long on a loaded machine; runs cut
  // short by it are not failures, and the seed still replays the same values.
  const timeLimit = Number(process.env.FUZZ_TIME_MS ?? 1_500);
  return { seed, numRuns, interruptAfterTimeLimit: timeLimit, markInterruptAsFailure: false, endOnFailure: true };
}

/** Every way a value can be looked at: message, stack, own properties, causes, inspect, JSON. */
export function everythingIn(value: unknown): string {
  const parts: string[] = [];
  const look = (read: () => unknown) => {
    try {
      parts.push(String(read()));
    } catch {
      // A value that cannot be printed shows nothing either.
    }
  };
  let current = value;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    const seen = current;
    look(() => seen);
    look(() => (seen as Error).stack);
    look(() => inspect(seen, { depth: 8, showHidden: true, getters: true }));
    look(() => JSON.stringify(seen, Object.getOwnPropertyNames(seen)));
    current = typeof seen === 'object' ? (seen as { cause?: unknown }).cause : undefined;
  }
  return parts.join('\n');
}

/** Whether the key is anywhere in `value`. */
export function holdsKey(value: unknown): boolean {
  return everythingIn(value).includes(KEY);
}

/** A fresh revoked Proxy: any read of it throws. */
export function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** The field names of every call's parameters, for objects whose getters all throw. */
const FIELD_NAMES = [
  'interaction', 'traces', 'user_feedback', 'anonymize', 'conversation', 'interactions', 'end_user', 'tags',
  'conversation_id', 'input', 'output', 'time_start', 'time_end', 'trace', 'feedback_actions', 'model', 'messages',
  'role', 'content', 'source', 'outputs', 'input_tokens', 'output_tokens', 'cost', 'slug', 'text', 'value', 'users',
  'active_from', 'active_to', 'filters', 'time_range', 'kind', 'tag', 'values', 'start', 'end', 'timeoutMs', 'salt',
  'apiKey', 'region', 'baseUrl', 'fetch', 'headers', 'onError', 'recorder', 'maxRetries', 'retryDelayMs',
];

function throwingGetters(): object {
  const value = {};
  for (const name of FIELD_NAMES) {
    Object.defineProperty(value, name, {
      enumerable: true,
      get() {
        throw new Error('a getter threw');
      },
    });
  }
  return value;
}

function throwingTraps(): object {
  const trap = () => {
    throw new Error('a trap threw');
  };
  return new Proxy([], { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap, getOwnPropertyDescriptor: trap });
}

function cyclic(): object {
  const value: Record<string, unknown> = { type: 'text', text: 'loop' };
  value.self = value;
  value.list = [value, { back: value }];
  return value;
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { inner: value } : [value];
  return value;
}

/**
 * A hostile value travels as a function that makes it, called where it is used: fast-check
 * inspects the values it generates, and a revoked Proxy or a throwing trap would blow up
 * in its hands instead of in the SDK's. Each is made afresh (cycles and proxies carry
 * state) and prints by its label in a counterexample.
 */
export type Make = () => unknown;

function labelled(label: string, make: Make): Make {
  return Object.assign(make, { [fc.toStringMethod]: () => label });
}

const fresh = (label: string, make: Make) => fc.constant(labelled(label, make));
const plain = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => labelled(fc.stringify(value), () => value));

/**
 * Hostile values: wrong types, getters and traps that throw, revoked proxies, BigInt,
 * cycles, deep nesting, huge strings and arrays, prototype-polluting keys, symbols,
 * NaN, Infinity and invalid dates, functions, and anything fast-check can build.
 */
export const hostile: fc.Arbitrary<Make> = fc.oneof(
  {
    arbitrary: plain(
      fc.anything({
        maxDepth: 3,
        withBigInt: true,
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withNullPrototype: true,
        withObjectString: true,
        withSet: true,
        withSparseArray: true,
        withTypedArray: true,
        key: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toJSON', 'valueOf')),
      }),
    ),
    weight: 4,
  },
  plain(
    fc.constantFrom<unknown>(
      Number.NaN, Infinity, -Infinity, -0, 2 ** 53 + 2, 1n, 2n ** 70n, Symbol('hostile'), null, undefined, '', ' ',
      '\u0000', '\ud800', true, () => 'fn',
    ),
  ),
  fresh('invalid Date', () => new Date(Number.NaN)),
  fresh('Date past the range', () => new Date(8.64e15)),
  fresh('revoked Proxy', revoked),
  fresh('getters that throw', throwingGetters),
  fresh('Proxy whose traps throw', throwingTraps),
  fresh('cycle', cyclic),
  fresh('array holding a cycle', () => [cyclic()]),
  fresh('__proto__ and constructor keys', () =>
    JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}'),
  ),
  fresh('toJSON that throws', () => ({
    toJSON: () => {
      throw new Error('toJSON threw');
    },
  })),
  fresh('symbol key', () => ({ [Symbol('key')]: 'symbol-keyed' })),
  fresh('inherited fields', () => Object.assign(Object.create({ inherited: 'yes' }) as object, { own: 'yes' })),
  fresh('Promise', () => Promise.resolve('later')),
  fresh('Error', () => new Error('an error as a value')),
  fresh('nested 2,000 deep', () => nested(2_000)),
  fresh('200,000-character string', () => 'x'.repeat(200_000)),
  fresh('3,000-item mixed array', () => Array.from({ length: 3_000 }, (_, index) => (index % 3 === 0 ? index : 'ok'))),
);

/** Where to put a hostile value: a path of choices down a valid value, or the root. */
export interface Mutation {
  path: number[];
  make: Make;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat(), { maxLength: 7 }),
  make: hostile,
});

/**
 * A copy of `base` with `value` put at the place `path` chooses: each number picks a key
 * (modulo their count) one level down; the walk stops where the data does. An empty
 * path replaces the whole value.
 */
export function mutate(base: unknown, { path, make }: Mutation): unknown {
  const value = make();
  if (path.length === 0) return value;
  const root = structuredClone(base) as Record<string, unknown>;
  let node = root;
  for (let index = 0; index < path.length; index += 1) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[(path[index] as number) % keys.length] as string;
    const child = node[key];
    if (index === path.length - 1 || typeof child !== 'object' || child === null) {
      node[key] = value;
      return root;
    }
    node = child as Record<string, unknown>;
  }
  return root;
}
