/**
 * An object that becomes what `make` returns the first time a property of it is read or
 * looked up (`in`): `make`'s object's own properties and prototype are then copied onto
 * it. For values that must exist at import but cost to make, such as the root's
 * deprecated schemas: a zod schema copied so shares its internals (`_zod`) with the
 * original and behaves as it does, `instanceof` included. Before its first use the object
 * has no own keys; it is never `===` to what `make` returned.
 *
 * @example
 * ```ts
 * export const interactionSchema = onFirstTouch(() => zodChecks().schemas.interactionSchema);
 * z.safeParse(interactionSchema, value); // made here, on zod's first read of it
 * ```
 */
export function onFirstTouch<T extends object>(make: () => T): T {
  const standIn = {} as T;
  let made = false;
  const become = () => {
    if (made) return;
    made = true;
    const real = make();
    Object.defineProperties(standIn, Object.getOwnPropertyDescriptors(real));
    Object.setPrototypeOf(standIn, Object.getPrototypeOf(real));
  };
  // Reads of the stand-in's missing properties reach its prototype: a Proxy that turns it
  // into the real object and answers again from it. Once made, the Proxy is out of the chain.
  const untouched = new Proxy(Object.prototype, {
    get(_target, key, receiver) {
      become();
      return Reflect.get(standIn, key, receiver);
    },
    has(_target, key) {
      become();
      return key in standIn;
    },
  });
  Object.setPrototypeOf(standIn, untouched);
  return standIn;
}
