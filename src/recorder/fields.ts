import { type WireFields, wireFieldNames } from '../schemas/wire-fields.js';
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
 * Makes the function that reads the fields of a wire object (`schemas/wire-fields.ts`)
 * from a caller's params (one step, or a feedback action) into a new record, each read
 * once ({@link fieldsOf}), in the schema's order: a required field always (the wire
 * tells trace steps apart by their keys, so a missing one is then reported as this
 * kind's), an optional one only when given. `copies` copy a field the caller may change
 * later.
 *
 * @example
 * ```ts
 * const recordRetrieval = fieldReaderOf(RETRIEVAL_STEP_FIELDS, { outputs: copyArray });
 * trace.push(recordRetrieval(step));
 * ```
 */
export function fieldReaderOf(
  fields: WireFields,
  copies: Readonly<Record<string, (value: unknown) => unknown>> = {},
): (params: unknown) => Record<string, unknown> {
  const names = wireFieldNames(fields);
  const optional = names.map((name) => fields[name] === 'value?');
  const copy = names.map((name) => copies[name]);
  const count = names.length;
  // As fieldsOf, read straight into the record: this runs on every recorded step.
  return (params) => {
    const source = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
    const recorded: Record<string, unknown> = {};
    let index = 0;
    while (index < count) {
      try {
        for (; index < count; index += 1) {
          const name = names[index] as string;
          const value = source === undefined ? undefined : source[name];
          if (value === undefined && optional[index] === true) continue;
          const copied = copy[index];
          recorded[name] = copied === undefined ? value : copied(value);
        }
      } catch {
        recorded[names[index] as string] = UNREADABLE;
        index += 1;
      }
    }
    return recorded;
  };
}

/**
 * A shallow copy of a plain object (tags), so that later changes by the caller do not
 * alter what was recorded; anything else is kept as it is, for validation to report.
 */
export function copyPlainObject(value: unknown): unknown {
  return readSafely(() => (isPlainObject(value) ? { ...value } : value));
}

/**
 * A shallow copy of an array: the caller may keep pushing to the array they passed (a
 * chat history usually grows in place), and the record must keep it as it was at the
 * call. Anything else is kept as it is, for validation to report.
 *
 * @example
 * ```ts
 * const recordRetrieval = fieldReaderOf(RETRIEVAL_STEP_FIELDS, { outputs: copyArray });
 * ```
 */
export function copyArray(value: unknown): unknown {
  return readSafely(() => (Array.isArray(value) ? value.slice() : value));
}
