import * as z from 'zod/mini';

import { MAX_JSON_DEPTH } from './plain-checks.js';

export { MAX_JSON_DEPTH } from './plain-checks.js';

/** A node still to copy, with the chain of containers above it, for cycle detection. */
interface Pending {
  /** Reads the value, once, when its turn comes: a getter that throws is then its own issue. */
  read: () => unknown;
  /** The value read, once it is a container on the chain. */
  value?: unknown;
  path: PropertyKey[];
  parent: Pending | undefined;
  store: (copy: unknown) => void;
}

type RawIssue = z.core.$ZodRawIssue;

function isAncestor(value: object, frame: Pending | undefined): boolean {
  for (let above = frame; above !== undefined; above = above.parent) {
    if (above.value === value) return true;
  }
  return false;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // An own `__proto__` key (JSON.parse makes them) stays a key and never becomes the prototype.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Copies `root` the way `JSON.stringify` reads it (own enumerable keys, `toJSON`, boxed
 * primitives unwrapped) into plain arrays and objects, reading each value once, with an
 * explicit stack so that no depth overflows it. Returns the issues instead when the
 * value cannot go on the wire as JSON: a BigInt, a cycle, nesting past
 * {@link MAX_JSON_DEPTH}, or a getter, `toJSON` or Proxy that throws.
 */
function copyAsJson(root: unknown): { copy: unknown } | { issues: RawIssue[] } {
  const issues: RawIssue[] = [];
  let result: unknown;
  const stack: Pending[] = [{ read: () => root, path: [], parent: undefined, store: (copy) => (result = copy) }];
  const fail = (path: PropertyKey[], input: unknown, message: string) =>
    issues.push({ code: 'custom', path, input, message });

  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { path, parent } = frame;
    let value: unknown;
    try {
      value = frame.read();
      if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        value = (value as { toJSON: (key: string) => unknown }).toJSON(String(path.at(-1) ?? ''));
      }
      if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt) {
        value = value.valueOf();
      }
      if (typeof value === 'bigint') {
        fail(path, value, 'is a BigInt, which JSON cannot carry; convert it to a number or a string');
        continue;
      }
      if (typeof value !== 'object' || value === null) {
        frame.store(value);
        continue;
      }
      if (path.length >= MAX_JSON_DEPTH) {
        fail(path, value, `nests deeper than ${MAX_JSON_DEPTH} levels`);
        continue;
      }
      if (isAncestor(value, parent)) {
        fail(path, value, 'refers back to itself (a circular reference), which JSON cannot carry');
        continue;
      }
      const container = frame;
      container.value = value;
      if (Array.isArray(value)) {
        const copy: unknown[] = new Array<unknown>(value.length);
        frame.store(copy);
        for (let index = value.length - 1; index >= 0; index -= 1) {
          const items = value;
          stack.push({ read: () => items[index], path: [...path, index], parent: container, store: (item) => (copy[index] = item) });
        }
      } else {
        const copy: Record<string, unknown> = {};
        frame.store(copy);
        const keys = Object.keys(value);
        for (let index = keys.length - 1; index >= 0; index -= 1) {
          const key = keys[index] as string;
          const object = value as Record<string, unknown>;
          stack.push({
            read: () => object[key],
            path: [...path, key],
            parent: container,
            store: (item) => setOwn(copy, key, item),
          });
        }
      }
    } catch {
      fail(path, undefined, 'could not be read (a getter, toJSON or Proxy threw)');
    }
  }
  return issues.length === 0 ? { copy: result } : { issues };
}

/**
 * Any value that can go on the wire as JSON, checked without recursion and copied into
 * plain data: a BigInt, a circular reference, nesting deeper than {@link MAX_JSON_DEPTH}
 * levels, or a getter or Proxy that throws is reported at its own path
 * (`messages[0].content[0].data.deep`) instead of failing later in `JSON.stringify` or a
 * server's stack. What is sent is the copy, as it was when validated.
 *
 * @example
 * ```ts
 * const contentPart = z.record(z.string(), jsonValue);
 * ```
 */
export const jsonValue = z.pipe(
  z.unknown(),
  z.transform((value, ctx) => {
    const result = copyAsJson(value);
    if ('copy' in result) return result.copy;
    for (const issue of result.issues) ctx.issues.push(issue);
    return z.NEVER;
  }),
) as unknown as z.ZodMiniType<unknown, unknown>;
