/**
 * Whether `value` is a plain object (`{…}`, or one made by `Object.create(null)`), as the
 * tags schema requires: not an array, a `Map`, a `Date` or a class instance, which the
 * schema refuses. Spreading one of those would make it look like tags (`['a']` becomes
 * `{ 0: 'a' }`, a `Map` becomes `{}`), so it is kept as it is, for validation to report.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  // `isPrototypeOf` is an own property of Object.prototype alone, in any realm.
  return prototype === null || Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}
