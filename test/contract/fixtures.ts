import type {
  EmbeddingStepInput,
  FeedbackAction,
  LLMStepInput,
  RetrievalStepInput,
  SendConversationParams,
  SendInteractionParams,
  UserRecordInput,
} from '../../src/index.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** An ISO timestamp `minutes` after 2026-03-01T10:00Z. */
export function at(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString();
}

export const llmStep: LLMStepInput = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a travel assistant.' },
    { role: 'user', content: 'Can I change my flight?' },
  ],
  output: 'Yes, for free until 24 hours before departure.',
  input_tokens: 41,
  output_tokens: 12,
  cost: 18,
};

export const retrievalStep: RetrievalStepInput = {
  source: 'fares-kb',
  input: 'change fee',
  outputs: ['Changes are free until 24h before departure.'],
};

export const embeddingStep: EmbeddingStepInput = {
  model: 'text-embedding-3-small',
  input: 'Can I change my flight?',
  input_tokens: 6,
};

/** What one stored interaction should say, for the seeds of the deletion cases. */
export interface InteractionSeed {
  input: string;
  output?: string;
  end_user?: string;
  tags?: Record<string, string>;
  minute?: number;
  feedback?: FeedbackAction['slug'][];
}

/** The params of `interactions.send` for a seed. */
export function interactionParams(seed: InteractionSeed): SendInteractionParams {
  const minute = seed.minute ?? 0;
  return {
    interaction: {
      conversation_id: 'conversation-under-test',
      end_user: seed.end_user ?? 'user-1',
      input: seed.input,
      output: seed.output ?? 'An answer.',
      time_start: at(minute),
      time_end: new Date(Date.parse(at(minute)) + 1500),
      ...(seed.tags === undefined ? {} : { tags: seed.tags }),
    },
    traces: [llmStep],
    ...(seed.feedback === undefined ? {} : { user_feedback: seed.feedback.map((slug) => ({ slug })) }),
  };
}

/** A conversation of two interactions with every kind of trace step and feedback. */
export function conversationParams(endUser = 'user-1'): SendConversationParams {
  return {
    conversation: {
      end_user: endUser,
      interactions: [
        {
          input: 'Can I change my flight?',
          output: 'Yes, for free until 24 hours before departure.',
          time_start: at(0),
          time_end: at(1),
          tags: { channel: 'web' },
          trace: [embeddingStep, retrievalStep, llmStep],
          feedback_actions: [{ slug: 'thumbs_up' }],
        },
        {
          input: 'And to Friday?',
          output: 'Friday works too.',
          time_start: at(2),
          time_end: at(3),
          trace: [llmStep],
          feedback_actions: [{ slug: 'rating', value: 4.5 }, { slug: 'comment', text: 'fast' }],
        },
      ],
    },
  };
}

/** A user record. */
export function user(endUser: string, tags: Record<string, string> = {}, activeTo?: string): UserRecordInput {
  return { end_user: endUser, tags, active_from: '2026-01-01', ...(activeTo === undefined ? {} : { active_to: activeTo }) };
}
