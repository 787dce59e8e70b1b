import type { AcceptedResponse, HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { DeleteInteractionsParams, MessageResponse, SendFeedbackParams, SendInteractionParams } from '../schemas/index.js';

/**
 * Single interactions: send one, delete stored ones by filter. Each method takes {@link RequestOptions} last (`signal`, `timeoutMs`,
 * `maxRetries`, `headers`).
 */
export class Interactions {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Sends one interaction with its trace and feedback (`POST`).
   *
   * @example
   * ```ts
   * await nebuly.interactions.send({
   *   interaction: {
   *     conversation_id: 'c-1', end_user: await hashEndUser('alice'),
   *     input: 'Hi', output: 'Hello!', time_start: start, time_end: new Date(),
   *   },
   *   traces: [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' }],
   * });
   * ```
   */
  send(params: SendInteractionParams, options?: RequestOptions): Promise<AcceptedResponse> {
    return this.#http.call('sendInteraction', params, options);
  }

  /**
   * Sends feedback on an interaction that was sent earlier (`POST`): the service links it
   * to the interaction it received with the same `end_user`, `input` and `output`, which
   * ended before `timestamp`. Feedback on an interaction not sent yet goes in its
   * `user_feedback` instead.
   *
   * @example
   * ```ts
   * await nebuly.interactions.sendFeedback({
   *   action: { slug: 'thumbs_up' },
   *   metadata: { end_user: hashed, input: 'Hi', output: 'Hello!', timestamp: new Date() },
   * });
   * ```
   */
  sendFeedback(params: SendFeedbackParams, options?: RequestOptions): Promise<AcceptedResponse> {
    return this.#http.call('sendFeedback', params, options);
  }

  /**
   * Deletes the project's stored interactions that match every filter (the values of one
   * filter are OR'd), within `time_range` when given (`POST`).
   *
   * **With no filter, every interaction of the project is deleted.**
   *
   * @example
   * ```ts
   * await nebuly.interactions.delete({ filters: [{ kind: 'user', values: [endUser] }] });
   * ```
   */
  delete(params: DeleteInteractionsParams = {}, options?: RequestOptions): Promise<MessageResponse> {
    return this.#http.call('deleteInteractions', params, options);
  }
}
