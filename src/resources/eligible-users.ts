import { ENDPOINTS } from '../core/endpoints.js';
import type { HttpCore } from '../core/http.js';
import type { DeleteUsersParams, MessageResponse, UsersParams, UsersResponse } from '../schemas/index.js';

/** The project's list of eligible users. */
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
  insert(params: UsersParams): Promise<UsersResponse> {
    return this.#http.call(ENDPOINTS.insertEligibleUsers, params);
  }

  /**
   * Replaces the tags and access period of users matched by `end_user`; answers the ones
   * updated (`PUT`).
   */
  update(params: UsersParams): Promise<UsersResponse> {
    return this.#http.call(ENDPOINTS.updateEligibleUsers, params);
  }

  /**
   * Deletes users by `end_user` (`DELETE`).
   *
   * @example
   * ```ts
   * await nebuly.eligibleUsers.delete({ users: ['u-1', 'u-2'] });
   * ```
   */
  delete(params: DeleteUsersParams): Promise<MessageResponse> {
    return this.#http.call(ENDPOINTS.deleteEligibleUsers, params);
  }

  /** Every eligible user of the project (`GET`). */
  list(): Promise<UsersResponse> {
    return this.#http.call(ENDPOINTS.listEligibleUsers);
  }
}
