import { UNREADABLE } from '../utils/issues.js';
import { isPlainObject } from './plain-object.js';

// Recording calls read their parameters field by field and never throw: a caller who
// passes `null`, a string, a getter that throws or a revoked Proxy gets the same
// treatment as one who forgot a field, and the problem is reported by path when the data
// is checked. A read that throws leaves UNREADABLE, which validation names as such.

/** `read()`, or {@link UNREADABLE} when it throws. */
export function readSafely(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return UNREADABLE;
  }
}

/**
 * The named fields of a recording call's parameters, each read once; none when they are
 * not an object. A field whose read throws is {@link UNREADABLE}, and reading goes on.
 */
export function fieldsOf<K extends string>(params: unknown, names: readonly K[]): Readonly<Record<K, unknown>> {
  const fields = {} as Record<K, unknown>;
  const source = typeof params === 'object' && params !== null ? (params as Record<K, unknown>) : undefined;
  // One try around the loop, resumed past a field that throws: this runs on every
  // recording call, and a try per field would cost it.
  let index = 0;
  while (index < names.length) {
    try {
      for (; index < names.length; index += 1) {
        const name = names[index] as K;
        fields[name] = source === undefined ? undefined : source[name];
      }
    } catch {
      fields[names[index] as K] = UNREADABLE;
      index += 1;
    }
  }
  return fields;
}

/**
 * A shallow copy of a plain object (tags), so that later changes by the caller do not
 * alter what was recorded; anything else is kept as it is, for validation to report.
 */
export function copyPlainObject(value: unknown): unknown {
  return readSafely(() => (isPlainObject(value) ? { ...value } : value));
}
