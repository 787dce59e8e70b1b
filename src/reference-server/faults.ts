/**
 * What a fault does to the requests it hits. Give at least one of `status`, `delayMs` and
 * `drop`; `delayMs` combines with either of the others (wait, then respond or drop).
 *
 * With `storeFirst: true` the request is served first (stored, if it stores anything) and
 * only its response is faulted: the client sees a failure although the data landed, which
 * is how a retry stores a duplicate when nothing deduplicates it.
 *
 * @example
 * ```ts
 * server.faults.add({ status: 503, retryAfter: '1', times: 2 });  // two 503s, then normal
 * server.faults.add({ delayMs: 2000 });                          // the next request is slow
 * server.faults.add({ drop: true, method: 'DELETE' });            // the next DELETE gets no response
 * server.faults.add({ storeFirst: true, status: 504 });          // stored, then given 504
 * server.faults.add({ storeFirst: true, drop: true });           // stored, then the connection is reset
 * server.faults.add({ storeFirst: true, delayMs: 5000 });        // stored, responded to after the client gave up
 * ```
 */
export interface FaultSpec {
  /**
   * Serve the request first (store what it carries, as without the fault), then respond
   * with the fault instead of the real response: `status`, a reset connection (`drop`), or the
   * real response only after `delayMs` (a client whose time-out is shorter never sees it).
   * @default false
   */
  storeFirst?: boolean;
  /** Respond with this status (100–599) with `{"detail": "injected fault"}` instead of serving the request. */
  status?: number;
  /** The `Retry-After` header sent with `status`: seconds, or an HTTP date. */
  retryAfter?: string | number;
  /** Wait this many milliseconds before serving (or responding with `status`, or dropping). */
  delayMs?: number;
  /**
   * Drop the connection with no response: the Node server destroys the socket, the MSW
   * handlers respond with a network error.
   */
  drop?: boolean;
  /**
   * How many requests the fault hits before it is spent; `Infinity` for every one.
   * @default 1
   */
  times?: number;
  /**
   * The chance, from 0 to 1, that a request in scope is hit; a request it spares does not
   * count towards `times`. Drawn from the server's `random` option, so a seeded generator
   * makes it repeatable.
   * @default 1
   */
  probability?: number;
  /** Only requests to this path below the base URL, exact, with its leading slash. */
  path?: string;
  /** Only requests with this HTTP method, any case. */
  method?: string;
}

/** A fault that was added: how often it hit, how many hits are left, and a way to take it back. */
export interface Fault {
  /** The fault as added, with defaults filled in. */
  readonly spec: Readonly<FaultSpec> & { readonly times: number; readonly probability: number };
  /** How many requests it has hit so far. */
  readonly hits: number;
  /** How many more requests it will hit (`Infinity` for an endless fault). */
  readonly remaining: number;
  /** Removes the fault before it is spent. */
  remove(): void;
}

class ActiveFault implements Fault {
  readonly spec: Fault['spec'];
  hits = 0;
  readonly #owner: FaultInjector;

  constructor(spec: Fault['spec'], owner: FaultInjector) {
    this.spec = spec;
    this.#owner = owner;
  }

  get remaining(): number {
    return this.spec.times - this.hits;
  }

  remove(): void {
    this.#owner.remove(this);
  }
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`reference server fault: ${message}`);
}

function normalize(spec: FaultSpec): Fault['spec'] {
  const { status, delayMs, drop, times = 1, probability = 1 } = spec;
  check(
    status !== undefined || delayMs !== undefined || drop === true,
    'give at least one of `status`, `delayMs` and `drop: true`',
  );
  check(!(status !== undefined && drop === true), '`status` and `drop` cannot be combined');
  check(status === undefined || (Number.isInteger(status) && status >= 100 && status <= 599), '`status` must be an HTTP status, 100 to 599');
  check(delayMs === undefined || (Number.isFinite(delayMs) && delayMs >= 0), '`delayMs` must be a finite number, zero or more');
  check(times === Infinity || (Number.isInteger(times) && times >= 1), '`times` must be a whole number, 1 or more, or Infinity');
  check(Number.isFinite(probability) && probability >= 0 && probability <= 1, '`probability` must be between 0 and 1');
  check(spec.retryAfter === undefined || status !== undefined, '`retryAfter` needs a `status`');
  return Object.freeze({
    ...spec,
    ...(spec.method === undefined ? {} : { method: spec.method.toUpperCase() }),
    times,
    probability,
  });
}

/**
 * The faults to inject into the next requests: error statuses, delays, dropped
 * connections. Each request is checked against the faults in the order they were added;
 * the first one in scope (path, method, and the `probability` draw) hits it.
 *
 * @example
 * ```ts
 * const fault = server.faults.add({ status: 503, retryAfter: '0', times: 2 });
 * await nebuly.eligibleUsers.list(); // retried twice, then succeeds
 * expect(fault.remaining).toBe(0);
 * server.faults.clear();
 * ```
 */
export class FaultInjector {
  readonly #faults: ActiveFault[] = [];
  readonly #random: () => number;

  /** @param random A source of numbers in [0, 1) for `probability`; `Math.random` by default. */
  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /**
   * Adds a fault after the ones already there.
   * @throws TypeError when the spec is contradictory or out of range.
   */
  add(spec: FaultSpec): Fault {
    const fault = new ActiveFault(normalize(spec), this);
    this.#faults.push(fault);
    return fault;
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults.length = 0;
  }

  /** The faults not yet spent, in the order they are checked. */
  get pending(): readonly Fault[] {
    return [...this.#faults];
  }

  /** @internal Removes one fault; {@link Fault.remove} calls this. */
  remove(fault: Fault): void {
    const index = this.#faults.indexOf(fault as ActiveFault);
    if (index !== -1) this.#faults.splice(index, 1);
  }

  /**
   * @internal Picks the fault that hits a request, counts the hit, and drops the fault
   * once it is spent. The server calls this once per request.
   */
  take(method: string, path: string): Fault['spec'] | undefined {
    for (const fault of this.#faults) {
      const { spec } = fault;
      if (spec.path !== undefined && spec.path !== path) continue;
      if (spec.method !== undefined && spec.method !== method) continue;
      // Only faults in scope draw, so a seeded generator gives the same sequence however
      // many other requests arrive.
      if (spec.probability < 1 && !(this.#random() < spec.probability)) continue;
      fault.hits += 1;
      if (fault.remaining <= 0) this.remove(fault);
      return spec;
    }
    return undefined;
  }
}
