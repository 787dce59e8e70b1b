import type { HttpCore } from '../core/http.js';
import { Conversations } from './conversations.js';
import { EligibleUsers } from './eligible-users.js';
import { Interactions } from './interactions.js';
import { PlatformUsers } from './platform-users.js';

/** The client's typed resources, one per group of endpoints. */
export interface Resources {
  readonly interactions: Interactions;
  readonly conversations: Conversations;
  readonly eligibleUsers: EligibleUsers;
  readonly platformUsers: PlatformUsers;
}

/**
 * The resources of a client, made at the first typed call through them
 * (`lazy-resources.ts` loads this module then).
 *
 * @example
 * ```ts
 * const { eligibleUsers } = makeResources(http);
 * ```
 */
export function makeResources(http: HttpCore): Resources {
  return {
    interactions: new Interactions(http),
    conversations: new Conversations(http),
    eligibleUsers: new EligibleUsers(http),
    platformUsers: new PlatformUsers(http),
  };
}
