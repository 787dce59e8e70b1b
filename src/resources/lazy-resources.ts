// The typed resources as a client holds them from its construction: each method loads
// the resources (`resources.ts`) at its first call and calls the same method there, so a
// bundle that only records never loads them (docs/decisions/0004-pay-for-what-you-use.md).
import type { HttpCore } from '../core/http.js';
import type { Resources } from './resources.js';

type Method = (...args: unknown[]) => unknown;

/** A made value, boxed: a promise would adopt a thenable (a `PagePromise`) instead of holding it. */
interface Made {
  value: unknown;
}

/** Each method of every resource; `list` and `export` of `interactions` return at once (see below). */
const PROMISING = {
  interactions: ['send', 'sendFeedback', 'delete', 'get', 'addTags'],
  conversations: ['send'],
  eligibleUsers: ['insert', 'update', 'delete', 'list'],
  platformUsers: ['insert', 'update', 'delete', 'list'],
} as const;

/**
 * The resources of a client over `http`, loaded at the first call of any of their
 * methods. A method that returns a promise returns one that settles as the loaded
 * method's; `interactions.list()` a thenable that is also iterated with `for await`, as
 * its `PagePromise`; `interactions.export()` an object iterated with `for await`, with
 * `windows()`, as its `InteractionExport`. Nothing is asked of the service before the
 * loaded method would ask it.
 *
 * @example
 * ```ts
 * const { eligibleUsers } = lazyResources(http);
 * await eligibleUsers.list(); // loads the resources, then asks
 * ```
 */
export function lazyResources(http: HttpCore): Resources {
  let loaded: Promise<Resources> | undefined;
  const load = () => (loaded ??= import('./resources.js').then(({ makeResources }) => makeResources(http)));
  const call = (resource: keyof Resources, name: string, args: unknown[]) =>
    load().then((resources): Made => ({ value: (resources[resource] as unknown as Record<string, Method>)[name]?.(...args) }));
  const shells = {} as Record<keyof Resources, Record<string, unknown>>;
  for (const [resource, names] of Object.entries(PROMISING) as [keyof Resources, readonly string[]][]) {
    shells[resource] = Object.fromEntries(
      names.map((name) => [name, (...args: unknown[]) => call(resource, name, args).then(({ value }) => value)]),
    );
  }
  shells.interactions.list = (...args: unknown[]) => {
    let made: Promise<Made> | undefined;
    const page = () => (made ??= call('interactions', 'list', args)).then(({ value }) => value);
    return {
      then: (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => page().then(onFulfilled, onRejected),
      catch: (onRejected?: (reason: unknown) => unknown) => page().catch(onRejected),
      finally: (onFinally?: () => void) => page().finally(onFinally),
      async *[Symbol.asyncIterator]() {
        yield* ((await (made ??= call('interactions', 'list', args))).value as AsyncIterable<unknown>);
      },
    };
  };
  shells.interactions.export = (...args: unknown[]) => {
    let made: Promise<Made> | undefined;
    const exported = async () => (await (made ??= call('interactions', 'export', args))).value as { windows(): AsyncIterable<unknown> } & AsyncIterable<unknown>;
    return {
      async *windows() {
        yield* (await exported()).windows();
      },
      async *[Symbol.asyncIterator]() {
        yield* await exported();
      },
    };
  };
  return shells as unknown as Resources;
}
