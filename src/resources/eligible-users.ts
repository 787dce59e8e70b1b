import type { HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { DeleteUsersParams, MessageResponse, UsersParams, UsersResponse } from '../schemas/index.js';

/**
 * The project's list of eligible users. Each method takes {@link RequestOptions} last (`signal`, `timeoutMs`,
 * `maxRetries`, `headers`).
 */
export class EligibleUsers {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Inserts users; answers the ones inserted (`POST`).
   *
   * @example
   * ```ts
   * await nebuly.eligibleUsers.insert({
   *   users: [{ end_user: 'u-1', tags: { department: 'sales' }, active_from: '2026-01-01' }],
   * });
   * ```
   */
  insert(params: UsersParams, options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('insertEligibleUsers', params, options);
  }

  /**
   * Replaces the tags and access period of users matched by `end_user`; answers the ones
   * updated (`PUT`).
   */
  update(params: UsersParams, options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('updateEligibleUsers', params, options);
  }

  /**
   * Deletes users by `end_user` (`DELETE`).
   *
   * @example
   * ```ts
   * await nebuly.eligibleUsers.delete({ users: ['u-1', 'u-2'] });
   * ```
   */
  delete(params: DeleteUsersParams, options?: RequestOptions): Promise<MessageResponse> {
    return this.#http.call('deleteEligibleUsers', params, options);
  }

  /**
   * Every eligible user of the project (`GET`).
   *
   * @example
   * ```ts
   * const { users } = await nebuly.eligibleUsers.list({ timeoutMs: 5_000, signal: request.signal });
   * ```
   */
  list(options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('listEligibleUsers', undefined, options);
  }
}
