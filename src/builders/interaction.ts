import { zodChecks } from './zod-checks-now.js';
import type {
  ConversationInteraction,
  ConversationInteractionInput,
  FeedbackAction,
  InteractionInput,
  SendInteractionBody,
  TraceStepInput,
} from '../schemas/index.js';

/**
 * Everything about one interaction in one flat object: the fields of the `interaction`
 * object of `interactions.send`, and beside them its `traces`, `user_feedback` and
 * `anonymize`.
 */
export interface InteractionParamsInput extends InteractionInput {
  /** The trace steps, in the order they ran. @default [] */
  traces?: TraceStepInput[] | undefined;
  /** The end user's feedback actions. */
  user_feedback?: FeedbackAction[] | undefined;
  /** Whether the service anonymizes the data. Left out, the service's default (`true`) applies. */
  anonymize?: boolean | undefined;
}

/**
 * Builds the body of `nebuly.interactions.send` from one flat object: timestamps become
 * ISO 8601 strings, optional fields that were not given are left out, and every field is
 * validated. Problems are reported by their path in *your* object (`input`,
 * `traces[0].messages[1].role`).
 *
 * @throws ValidationError listing every problem by path.
 *
 * @example
 * ```ts
 * const params = interactionParams({
 *   conversation_id: 'c-42',
 *   end_user: await hashEndUser('alice'),
 *   input: 'Hi',
 *   output: 'Hello! How can I help?',
 *   time_start: startedAt,
 *   time_end: new Date(),
 *   tags: { department: 'sales' },
 *   traces: [llmStep({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello! How can I help?' })],
 * });
 * await nebuly.interactions.send(params);
 * ```
 */
export function interactionParams(params: InteractionParamsInput): SendInteractionBody {
  const { parseOrThrow, readOrThrow, schemas } = zodChecks();
  const body = readOrThrow(
    params,
    () => {
      const { traces = [], user_feedback, anonymize, ...interaction } = params ?? {};
      return {
        interaction,
        traces,
        ...(user_feedback === undefined ? {} : { user_feedback }),
        ...(anonymize === undefined ? {} : { anonymize }),
      };
    },
    'interaction',
  );
  // The schema nests the interaction's own fields under `interaction`; the caller gave
  // them at the top level, so that is where their paths point.
  return parseOrThrow(schemas.sendInteractionParamsSchema, body, 'interaction', (issue) =>
    issue.path[0] === 'interaction' ? { ...issue, path: issue.path.slice(1) } : issue,
  );
}

/**
 * Builds one interaction of a conversation, for `nebuly.conversations.send`: timestamps
 * become ISO 8601 strings and every field is validated. The recorder
 * (`nebuly.startConversation`) builds these for you; use this when you assemble the
 * conversation yourself.
 *
 * @throws ValidationError listing every problem by path (`trace[0].model`).
 *
 * @example
 * ```ts
 * await nebuly.conversations.send({
 *   conversation: {
 *     end_user: 'user-hash',
 *     interactions: [
 *       conversationInteraction({ input: 'Hi', output: 'Hello!', time_start, time_end, trace: [step] }),
 *     ],
 *   },
 * });
 * ```
 */
export function conversationInteraction(params: ConversationInteractionInput): ConversationInteraction {
  const { parseOrThrow, schemas } = zodChecks();
  return parseOrThrow(schemas.conversationInteractionSchema, params, 'conversation interaction');
}
