import { expect } from 'vitest';

/**
 * What `promise` rejected with; fails the test when it resolves.
 *
 * @example
 * ```ts
 * expect(await rejection(nebuly.eligibleUsers.list())).toBeInstanceOf(AuthenticationError);
 * ```
 */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

/**
 * What `run` threw; fails the test when it returns.
 *
 * @example
 * ```ts
 * expect(thrown(() => new NebulyClient({ apiKey: 5 as never }))).toBeInstanceOf(TypeError);
 * ```
 */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.unreachable('expected a throw');
}
