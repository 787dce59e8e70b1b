import type { AcceptedResponse, HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { DeleteInteractionsParams, MessageResponse, SendFeedbackParams, SendInteractionParams } from '../schemas/index.js';
import type { ExportInteractionsParams, InteractionDetail, InteractionsPage, InteractionSummary, ListInteractionsParams } from '../types/reading.js';
import type { AddTagsParams } from '../types/tags.js';
import { InteractionExport } from './interaction-export.js';
import { PagePromise } from './page-promise.js';

/** The page size of `list` when `limit` is left out (the service's own default is 10). */
const PAGE_LIMIT = 100;

/** `params[name]` when it is a whole number; else `fallback` (validation reports what is wrong). */
function wholeNumber(params: unknown, name: 'limit' | 'offset', fallback: number): number {
  try {
    const value = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)[name] : undefined;
    return typeof value === 'number' && Number.isSafeInteger(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Interactions: send one, send feedback or tags on one sent earlier, list, export and
 * read the stored ones, delete them by filter. Each method takes {@link RequestOptions}
 * last (`signal`, `timeoutMs`, `maxRetries`, `headers`).
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

  /**
   * The stored interactions whose time is in `time_range` and that match every filter
   * (`POST`). Awaited, one page, `{ total, data }` (`limit` rows from `offset`);
   * iterated with `for await`, every row of that page and of the pages after it, each
   * asked when the loop reaches it.
   *
   * @example
   * ```ts
   * const time_range = { start: '2026-10-01T00:00:00Z', end: '2026-10-08T00:00:00Z' };
   * const { total, data } = await nebuly.interactions.list({ time_range, limit: 20 });
   * for await (const row of nebuly.interactions.list({ time_range, filters: [{ kind: 'user', values: [endUser] }] })) {
   *   console.log(row.timestamp, row.input_text);
   * }
   * ```
   */
  list(params: ListInteractionsParams, options?: RequestOptions): PagePromise<InteractionsPage, InteractionSummary> {
    const first = wholeNumber(params, 'offset', 0);
    // The first page is asked with the params as given, so that validation sees them whole.
    const page = (offset: number) => this.#http.call('listInteractions', offset === first ? params : { ...params, offset }, options);
    return new PagePromise(page, first, wholeNumber(params, 'limit', PAGE_LIMIT));
  }

  /**
   * Every stored interaction whose time is in `[from, to)`, for a range of any length:
   * asked in consecutive windows of at most 7 days (the service's limit), in order, none
   * given twice or missed at a window's edge, each window retried like every call. Stop it
   * with `signal`. `.windows()` gives the windows themselves, with their place.
   *
   * @example
   * ```ts
   * for await (const item of nebuly.interactions.export({ from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' })) {
   *   out.write(`${JSON.stringify(item)}\n`);
   * }
   * ```
   */
  export(params: ExportInteractionsParams, options?: RequestOptions): InteractionExport {
    return new InteractionExport(this.#http, params, options);
  }

  /**
   * The detail of one stored interaction, by the `id` of a listed row (`GET`): its
   * content, tags, feedback, and the interactions around it in its conversation.
   *
   * @example
   * ```ts
   * const { data } = await nebuly.interactions.list({ time_range, limit: 1 });
   * const detail = await nebuly.interactions.get(data[0]!.id);
   * ```
   */
  get(interaction_id: string, options?: RequestOptions): Promise<InteractionDetail> {
    return this.#http.call('getInteractionDetail', { interaction_id }, options);
  }

  /**
   * Adds tags to an interaction sent earlier, once they are known (a resolved ticket, a
   * CSAT score) (`POST`): tags of the same name are replaced, the others kept. The service
   * finds the interaction by its end user and `time_start`, and its input and output
   * when given. Sent with an `Idempotency-Key` (the same on each retry) and through the
   * client's `mask` (kind `'tags'`). For an interaction the recorder recorded, by its
   * `turn.id`, use `nebuly.tag()`.
   *
   * @example
   * ```ts
   * await nebuly.interactions.addTags({
   *   tags: { ticket: 'resolved', csat: '5' },
   *   metadata: { end_user: endUser, time_start: interaction.time_start, input: interaction.input, output: interaction.output },
   * });
   * ```
   */
  addTags(params: AddTagsParams, options?: RequestOptions): Promise<AcceptedResponse> {
    return this.#http.call('addTags', params, options);
  }
}
