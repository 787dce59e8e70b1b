/**
 * One interaction recorded whole, after the fact, through the client's recorder: what
 * the span processors (`nebuly-client/otel`, `nebuly-client/openai-agents`) build from a
 * finished trace.
 */
import type { NebulyClient } from '../client.js';
import type { Conversation } from '../recorder/conversation.js';
import { turnParts } from '../recorder/turn.js';
import type { EmbeddingStepInput, LLMStepInput, RetrievalStepInput } from '../schemas/index.js';
import { lastUserText } from './provider/text.js';

/**
 * A step to record, with the kind the recorder's method takes.
 *
 * @example
 * ```ts
 * const step: Step = { kind: 'retrieval', step: { source: 'get_order', input: '{"id":7}', outputs: ['shipped'] } };
 * ```
 */
export type Step =
  | { readonly kind: 'llm'; readonly step: LLMStepInput }
  | { readonly kind: 'retrieval'; readonly step: RetrievalStepInput }
  | { readonly kind: 'embedding'; readonly step: EmbeddingStepInput };

/**
 * What one interaction is made of, read from a finished trace.
 *
 * @example
 * ```ts
 * const traced: TracedInteraction = { endUser: 'user-1', conversationId: undefined, input: 'Hi', output: 'Hello!', steps: [], startMs, endMs };
 * ```
 */
export interface TracedInteraction {
  readonly endUser: string;
  readonly conversationId: string | undefined;
  readonly input: string | undefined;
  readonly output: string | undefined;
  readonly steps: readonly Step[];
  /** The trace's first start and last end, in epoch milliseconds. */
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The conversation an interaction goes into, and whether it is its own (ended at once):
 * the one place where the span processors make conversations, so that resuming one by id
 * across instances changes only here.
 */
function conversationFor(nebuly: NebulyClient, endUser: string, conversationId: string | undefined): { conversation: Conversation; own: boolean } {
  // Resumed by id, in this process or (with a shared store) any instance.
  if (conversationId !== undefined) return { conversation: nebuly.conversation({ conversation_id: conversationId, end_user: endUser }), own: false };
  return { conversation: nebuly.startConversation({ end_user: endUser }), own: true };
}

/** The text of the last LLM step of `steps` that has one, else `''`. */
function lastAnswer(steps: readonly Step[]): string {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index];
    if (step?.kind === 'llm' && step.step.output !== '') return step.step.output;
  }
  return '';
}

/** The first LLM step's last user message: what the user asked, when the run did not say. */
function firstQuestion(steps: readonly Step[]): string {
  for (const step of steps) {
    if (step.kind === 'llm') return lastUserText(step.step.messages.map((message) => ({ role: message.role, content: typeof message.content === 'string' ? message.content : '' }))) ?? '';
  }
  return '';
}

/**
 * Records `interaction`: a turn with its steps in order, its times those of its spans.
 * A conversation of its own (no conversation id) is ended, and so sent, at once.
 *
 * @example
 * ```ts
 * recordInteraction(nebuly, { endUser, conversationId, input, output, steps, startMs, endMs });
 * ```
 */
export function recordInteraction(nebuly: NebulyClient, interaction: TracedInteraction): void {
  const { conversation, own } = conversationFor(nebuly, interaction.endUser, interaction.conversationId);
  const turn = conversation.interaction({ input: interaction.input ?? firstQuestion(interaction.steps) });
  const { record } = turnParts(turn);
  record.timeStart = interaction.startMs;
  for (const { kind, step } of interaction.steps) {
    if (kind === 'llm') turn.llm(step);
    else if (kind === 'retrieval') turn.retrieval(step);
    else turn.embedding(step);
  }
  turn.end({ output: interaction.output ?? lastAnswer(interaction.steps) });
  // The span's end, not the moment it reached the processor (a batch may come later).
  if (record.ended) record.timeEnd = Math.max(interaction.endMs, record.timeStart);
  if (own) void conversation.end();
}
