/** The headers the SDK sets on every request: neither the client's nor a call's `headers` may name them. */
export const SDK_HEADERS: readonly string[] = ['authorization', 'content-type', 'accept'];

/**
 * What is wrong with each header name among `names` that the SDK sets itself, in any
 * case: one message per name, each naming it. The one rule for the client's `headers`
 * option and a call's; the callers say where the names came from.
 *
 * @example
 * ```ts
 * sdkHeaderProblems(['Authorization', 'x-team']);
 * // ['cannot set `authorization`: the SDK sets it on every request, from `apiKey` (for another API key, create another client)']
 * ```
 */
export function sdkHeaderProblems(names: Iterable<string>): string[] {
  const given = new Set([...names].map((name) => name.toLowerCase()));
  return SDK_HEADERS.filter((name) => given.has(name)).map(
    (name) =>
      `cannot set \`${name}\`: the SDK sets it on every request` +
      (name === 'authorization' ? ', from `apiKey` (for another API key, create another client)' : ''),
  );
}
