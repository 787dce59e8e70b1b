import type { AcceptedResponse, HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { SendConversationParams } from '../schemas/index.js';

/**
 * Whole conversations, sent in one bulk request once they have ended. Each method takes
 * {@link RequestOptions} last (`signal`, `timeoutMs`, `maxRetries`, `headers`).
 */
export class Conversations {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Sends a whole conversation, interactions with their traces, in one request to the
   * bulk endpoint (`POST`). The recorder
   * (`nebuly.startConversation`) builds and sends these for you.
   *
   * @example
   * ```ts
   * await nebuly.conversations.send({
   *   conversation: {
   *     end_user: 'user-hash',
   *     interactions: [{ input: 'Hi', output: 'Hello!', time_start, time_end, trace: [] }],
   *   },
   * });
   * ```
   */
  send(params: SendConversationParams, options?: RequestOptions): Promise<AcceptedResponse> {
    return this.#http.call('sendConversation', params, options);
  }
}
