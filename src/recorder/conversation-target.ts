/**
 * Where recording that has no turn at hand goes (the integrations, `nebuly.withConversation`):
 * a turn, a conversation, or an end user's session. One check for every place a target
 * is given, with the same rules as `startConversation`.
 */
import { checkNonEmptyString, checkTags, Found, unreadableIssues } from '../schemas/plain-checks.js';
import { formatPath, type Issue } from '../utils/issues.js';
import { asyncContext, type AsyncContext } from '../utils/async-context.js';
import { Conversation } from './conversation.js';
import { Turn } from './turn.js';

/**
 * A target as `nebuly.withConversation` takes it: the integrations' targets, the client
 * being optional in the session form (it is the client whose method is called).
 * @example
 * ```ts
 * const target: ConversationTarget = { endUser: userHash, conversationId: chatId };
 * ```
 */
export type ConversationTarget =
  | { turn: Turn }
  | { conversation: Conversation }
  | {
      /** The client that records (set by `withConversation` when left out). */
      nebuly?: unknown;
      /** Who the conversation is with; hash it first (`hashEndUser`). */
      endUser: string;
      /** Your id of the chat session: calls with the same id are one conversation. */
      conversationId?: string | undefined;
      /** Tags of every interaction recorded through this target. */
      tags?: Record<string, string> | undefined;
    };

/**
 * The ambient target: what `withConversation` set for the code it runs.
 * @example
 * ```ts
 * const { nebuly, target } = ambientContext().get() ?? {};
 * ```
 */
export interface Ambient {
  readonly nebuly: object;
  readonly target: ConversationTarget;
}

let ambient: AsyncContext<Ambient> | undefined;

/**
 * The one context of ambient targets, made on first use.
 * @example
 * ```ts
 * ambientContext().run({ nebuly, target }, fn);
 * ```
 */
export function ambientContext(): AsyncContext<Ambient> {
  ambient ??= asyncContext<Ambient>();
  return ambient;
}

// The recorder's snake_case names, written in a target by habit.
const CAMEL_CASE: Readonly<Record<string, string>> = { end_user: 'endUser', conversation_id: 'conversationId' };

/** The first problem of a session target's fields, by `startConversation`'s rules (without zod). */
function sessionIssue(given: Record<string, unknown>): Issue | undefined {
  const fields: Record<string, unknown> = {};
  try {
    for (const name of ['endUser', 'conversationId', 'tags']) fields[name] = given[name];
    const found = new Found(fields);
    checkNonEmptyString(fields.endUser, ['endUser'], found);
    if (fields.conversationId !== undefined) checkNonEmptyString(fields.conversationId, ['conversationId'], found);
    if (fields.tags !== undefined) checkTags(fields.tags, ['tags'], found);
    return found.issues[0];
  } catch {
    return unreadableIssues(fields)[0];
  }
}

function fail(message: string): never {
  throw new TypeError(`nebuly-client: ${message}`);
}

/**
 * Checks a target; `isClient` says whether a value is a NebulyClient, and `clientRequired`
 * whether the session form must name one.
 *
 * @throws TypeError naming the field that is wrong.
 * @example
 * ```ts
 * checkConversationTarget(target, (value) => value instanceof NebulyClient, true);
 * ```
 */
export function checkConversationTarget(target: unknown, isClient: (value: unknown) => boolean, clientRequired: boolean): void {
  const expected = clientRequired
    ? 'expected { turn }, { conversation } or { nebuly, endUser, conversationId?, tags? }'
    : 'expected { turn }, { conversation } or { endUser, conversationId?, tags? }';
  if (typeof target !== 'object' || target === null) fail(`the target is ${target === null ? 'null' : typeof target}; ${expected}.`);
  const given = target as Record<string, unknown>;
  if ('turn' in given) {
    if (!(given.turn instanceof Turn)) fail('`target.turn` is not a Turn (get one from conversation.interaction()).');
    return;
  }
  if ('conversation' in given) {
    if (!(given.conversation instanceof Conversation)) {
      fail('`target.conversation` is not a Conversation (get one from nebuly.startConversation()).');
    }
    return;
  }
  for (const [snake, camel] of Object.entries(CAMEL_CASE)) {
    if (snake in given && !(camel in given)) fail(`\`target.${snake}\` is not a target field; did you mean \`${camel}\`?`);
  }
  if ('nebuly' in given ? !isClient(given.nebuly) : clientRequired && 'endUser' in given) {
    fail('`target.nebuly` is not a NebulyClient.');
  }
  if (!('endUser' in given)) {
    fail(`the target has none of \`turn\`, \`conversation\`, ${clientRequired ? '`nebuly`' : '`endUser`'}; ${expected}.`);
  }
  const issue = sessionIssue(given);
  if (issue !== undefined) fail(`\`${formatPath(['target', ...issue.path])}\` ${issue.message} (the same rule as startConversation).`);
}
