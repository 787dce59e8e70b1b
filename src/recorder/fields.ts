// Recording calls read their parameters field by field and never throw: a caller who
// passes `null` or a string gets the same treatment as one who forgot every field, and
// the problem is reported by path when the data is checked.
const NOTHING: Readonly<Record<string, unknown>> = Object.freeze({});

/** The fields of a recording call's parameters, or none when they are not an object. */
export function fieldsOf(params: unknown): Readonly<Record<string, unknown>> {
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : NOTHING;
}
