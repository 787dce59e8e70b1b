import type { HttpCore } from '../core/http.js';
import type { RequestOptions } from '../core/request-options.js';
import type { DeleteUsersParams, MessageResponse, UsersParams, UsersResponse } from '../schemas/index.js';

/**
 * The project's platform users (the same records as eligible users). Each method takes {@link RequestOptions} last (`signal`, `timeoutMs`,
 * `maxRetries`, `headers`).
 */
export class PlatformUsers {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Inserts users; answers the ones inserted (`PUT`).
   *
   * The spec names only update and list for platform users; this method follows the
   * service's published API reference, where `PUT` on this path sends (inserts) users.
   *
   * @example
   * ```ts
   * await nebuly.platformUsers.insert({
   *   users: [{ end_user: 'u-1', tags: { department: 'sales' }, active_from: '2026-01-01' }],
   * });
   * ```
   */
  insert(params: UsersParams, options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('insertPlatformUsers', params, options);
  }

  /**
   * Replaces the tags and access period of users matched by `end_user`; answers the ones
   * updated (`POST`).
   */
  update(params: UsersParams, options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('updatePlatformUsers', params, options);
  }

  /**
   * Deletes users by `end_user`; ones not stored are ignored (`DELETE`).
   *
   * @example
   * ```ts
   * const { message } = await nebuly.platformUsers.delete({ users: ['u-1', 'u-2'] });
   * ```
   */
  delete(params: DeleteUsersParams, options?: RequestOptions): Promise<MessageResponse> {
    return this.#http.call('deletePlatformUsers', params, options);
  }

  /** Every platform user of the project (`GET`). */
  list(options?: RequestOptions): Promise<UsersResponse> {
    return this.#http.call('listPlatformUsers', undefined, options);
  }
}
