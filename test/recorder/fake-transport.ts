import { AbortError, type NebulyError } from '../../src/core/errors.js';
import type { AcceptedResponse } from '../../src/core/http.js';
import type { DeliveryRequest, Transport } from '../../src/recorder/outbox.js';

/** A request as the fake saw it: the body decoded, for the tests to read. */
export interface FakeRequest {
  method: 'POST';
  path: string;
  body: string;
  idempotencyKey: string;
  signal?: AbortSignal | undefined;
}

const decoder = new TextDecoder();

/** What the fake answers to one request: a success, an error, or nothing until released. */
export type FakeAnswer = 'accept' | NebulyError | 'hold';

interface Held {
  request: FakeRequest;
  release: () => void;
}

/**
 * A transport in memory, for tests that use fake timers (real sockets and fake timers do
 * not mix): it records each request, answers from a script, and can hold requests open
 * to show concurrency, queueing and shutdown deadlines. Held requests reject with an
 * `AbortError` when their signal aborts, like fetch, unless `ignoreAbort` is set.
 */
export class FakeTransport implements Transport {
  readonly requests: FakeRequest[] = [];
  /** The most requests that were in flight at once. */
  maxInFlight = 0;
  /** Answers for the next requests, in order; once spent, `fallback` applies. */
  readonly script: FakeAnswer[] = [];
  fallback: FakeAnswer = 'accept';
  /** Held requests ignore their abort signal, like a fetch that never settles. */
  ignoreAbort = false;
  readonly #held: Held[] = [];
  #inFlight = 0;

  /** The bodies received, parsed. */
  get bodies(): unknown[] {
    return this.requests.map((request) => JSON.parse(request.body ?? 'null') as unknown);
  }

  /** How many requests are being held. */
  get held(): number {
    return this.#held.length;
  }

  deliver({ path, body, idempotencyKey, signal }: DeliveryRequest): Promise<AcceptedResponse> {
    const request: FakeRequest = { method: 'POST', path, body: decoder.decode(body), idempotencyKey, signal };
    this.requests.push(request);
    const answer = this.script.shift() ?? this.fallback;
    this.#inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    const done = () => {
      this.#inFlight -= 1;
    };
    if (answer === 'accept') {
      done();
      return Promise.resolve({ status: 202, body: null });
    }
    if (answer !== 'hold') {
      done();
      return Promise.reject(answer);
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.#held.indexOf(held);
        if (index >= 0) this.#held.splice(index, 1);
        done();
        reject(new AbortError(`POST ${request.path} was aborted`));
      };
      const held: Held = {
        request,
        release: () => {
          // Like fetch: a settled request no longer listens to its signal (the outbox shares one).
          request.signal?.removeEventListener('abort', onAbort);
          done();
          resolve({ status: 202, body: null });
        },
      };
      this.#held.push(held);
      if (!this.ignoreAbort) request.signal?.addEventListener('abort', onAbort);
    });
  }

  /** Answers the oldest held request with success. */
  releaseOldest(): void {
    this.#held.shift()?.release();
  }

  /** Answers every held request with success. */
  releaseAll(): void {
    for (const held of this.#held.splice(0)) held.release();
  }
}
