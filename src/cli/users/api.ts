import type { NebulyClient } from '../../client.js';
import type { UserRecord, UsersResponse } from '../../schemas/index.js';

/** The users endpoints a command works on: eligible users, or with `--platform` platform users. */
export interface UsersApi {
  /** `eligible users` or `platform users`. */
  readonly name: string;
  list(): Promise<UsersResponse>;
  insert(users: UserRecord[]): Promise<UsersResponse>;
  update(users: UserRecord[]): Promise<UsersResponse>;
  delete(endUsers: string[]): Promise<unknown>;
}

/** The endpoints of eligible users, or of platform users. */
export function usersApi(client: NebulyClient, platform: boolean): UsersApi {
  if (platform) {
    const users = client.platformUsers;
    return {
      name: 'platform users',
      list: () => users.list(),
      insert: (records) => users.insert({ users: records }),
      update: (records) => users.update({ users: records }),
      delete: (endUsers) => users.delete({ users: endUsers }),
    };
  }
  const users = client.eligibleUsers;
  return {
    name: 'eligible users',
    list: () => users.list(),
    insert: (records) => users.insert({ users: records }),
    update: (records) => users.update({ users: records }),
    delete: (endUsers) => users.delete({ users: endUsers }),
  };
}
