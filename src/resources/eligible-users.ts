import type { HttpCore } from '../core/http.js';
import { parseOrThrow } from '../core/validate.js';
import type { DeleteUsersParams, MessageResponse, UsersParams, UsersResponse } from '../schemas/index.js';
import { messageResponseSchema } from '../schemas/responses.js';
import { deleteUsersParamsSchema, usersParamsSchema, usersResponseSchema } from '../schemas/users.js';

const PATH = '/api/external/eligible-users';

/** The project's list of eligible users. */
export class EligibleUsers {
  readonly #http: HttpCore;

  /** @internal Resources come from `new NebulyClient()`. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Inserts users; answers the ones inserted. `POST /api/external/eligible-users`.
   *
   * @example
   * ```ts
   * await nebuly.eligibleUsers.insert({
   *   users: [{ end_user: 'u-1', tags: { department: 'sales' }, active_from: '2026-01-01' }],
   * });
   * ```
   */
  async insert(params: UsersParams): Promise<UsersResponse> {
    const body = parseOrThrow(usersParamsSchema, params);
    return this.#http.json({ method: 'POST', path: PATH, body: JSON.stringify(body) }, usersResponseSchema);
  }

  /**
   * Replaces the tags and access period of users matched by `end_user`; answers the ones
   * updated. `PUT /api/external/eligible-users`.
   */
  async update(params: UsersParams): Promise<UsersResponse> {
    const body = parseOrThrow(usersParamsSchema, params);
    return this.#http.json({ method: 'PUT', path: PATH, body: JSON.stringify(body) }, usersResponseSchema);
  }

  /**
   * Deletes users by `end_user`. `DELETE /api/external/eligible-users`.
   *
   * @example
   * ```ts
   * await nebuly.eligibleUsers.delete({ users: ['u-1', 'u-2'] });
   * ```
   */
  async delete(params: DeleteUsersParams): Promise<MessageResponse> {
    const body = parseOrThrow(deleteUsersParamsSchema, params);
    return this.#http.json({ method: 'DELETE', path: PATH, body: JSON.stringify(body) }, messageResponseSchema);
  }

  /** Every eligible user of the project. `GET /api/external/eligible-users`. */
  async list(): Promise<UsersResponse> {
    return this.#http.json({ method: 'GET', path: PATH }, usersResponseSchema);
  }
}
