import type { AcceptedResponse, HttpCore } from '../core/http.js';
import { parseOrThrow } from '../core/validate.js';
import { deleteInteractionsParamsSchema } from '../schemas/filters.js';
import type { DeleteInteractionsParams, MessageResponse, SendInteractionParams } from '../schemas/index.js';
import { sendInteractionParamsSchema } from '../schemas/interactions.js';
import { messageResponseSchema } from '../schemas/responses.js';

/** Single interactions: send one, delete stored ones by filter. */
export class Interactions {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Sends one interaction with its trace and feedback.
   * `POST /event-ingestion/api/v3/events/trace_interaction`.
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
  async send(params: SendInteractionParams): Promise<AcceptedResponse> {
    const body = parseOrThrow(sendInteractionParamsSchema, params);
    return this.#http.accepted({
      method: 'POST',
      path: '/event-ingestion/api/v3/events/trace_interaction',
      body: JSON.stringify(body),
    });
  }

  /**
   * Deletes the project's stored interactions that match every filter (the values of one
   * filter are OR'd), within `time_range` when given.
   * `POST /api/external/projects/delete-interactions`.
   *
   * **With no filter, every interaction of the project is deleted.**
   *
   * @example
   * ```ts
   * await nebuly.interactions.delete({ filters: [{ kind: 'user', values: [endUser] }] });
   * ```
   */
  async delete(params: DeleteInteractionsParams = {}): Promise<MessageResponse> {
    const body = parseOrThrow(deleteInteractionsParamsSchema, params);
    return this.#http.json(
      { method: 'POST', path: '/api/external/projects/delete-interactions', body: JSON.stringify(body) },
      messageResponseSchema,
    );
  }
}
