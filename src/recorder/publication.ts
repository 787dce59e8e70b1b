/**
 * What the publisher takes and what it sends through: a conversation's body with its
 * endpoint and key (a {@link Publication}), and the client's HTTP core (a {@link Transport}).
 */
import type { AcceptedResponse } from '../core/http.js';

/**
 * One body for an ingesting endpoint, as the recorder hands it to the client's HTTP core.
 *
 * @example
 * ```ts
 * const request: DeliveryRequest = { path: ENDPOINTS.sendConversation.path, body, idempotencyKey: claim.generation };
 * ```
 */
export interface DeliveryRequest {
  /** The endpoint's path below the base URL. */
  path: string;
  /** The JSON body in UTF-8. */
  body: Uint8Array;
  /** Sent as `Idempotency-Key`, the same on every retry. */
  idempotencyKey: string;
  /** Aborts the request and its retries (at the shutdown deadline). */
  signal?: AbortSignal | undefined;
}

/**
 * How the publisher reaches the service: the client's HTTP core, which owns
 * authentication, time-outs and the retry policy. Tests pass a fake.
 */
export interface Transport {
  deliver(request: DeliveryRequest): Promise<AcceptedResponse>;
}

/**
 * What the publisher sends: a body, where to, under which key, and the conversation it
 * belongs to (named in errors and outcomes).
 *
 * @example
 * ```ts
 * publisher.publish({ conversationId, path: ENDPOINTS.sendConversation.path, body, idempotencyKey });
 * ```
 */
export interface Publication {
  readonly conversationId: string;
  readonly path: string;
  readonly body: Uint8Array;
  readonly idempotencyKey: string;
  /** `false` for a body that is no conversation (feedback): not counted in a `DeliveryReport`. */
  readonly counted?: boolean | undefined;
  /**
   * What this process keeps of the conversation elsewhere until its outcome (a store in
   * its memory keeps the claimed interactions), in bytes: counted against
   * `maxQueuedBytes` with the body.
   */
  readonly heldElsewhere?: number | undefined;
}

/**
 * What a queued conversation costs besides its bytes: the delivery record, the typed
 * array and its backing store, the promises, closures and frames of its send, its claim
 * and its ids. Counted against `maxQueuedBytes`, so that many small conversations are
 * bounded as well as few large ones. Measured, not guessed: test/recorder/heap-drain.test.ts
 * fills a queue of 200-byte conversations and checks the heap against the bound.
 */
export const QUEUED_ENTRY_OVERHEAD_BYTES = 4096;
