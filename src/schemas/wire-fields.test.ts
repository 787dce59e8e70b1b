import { describe, expect, it } from 'vitest';
import { nonEmptyString, timestamp } from './common.js';
import { conversationInteractionSchema, sendConversationParamsSchema } from './conversations.js';
import { conversationFeedbackActionSchema } from './feedback.js';
import { embeddingStepSchema, llmStepSchema, messageSchema, retrievalStepSchema } from './traces.js';
import {
  CONVERSATION_FIELDS,
  CONVERSATION_INTERACTION_FIELDS,
  EMBEDDING_STEP_FIELDS,
  FEEDBACK_ACTION_FIELDS,
  type FieldKind,
  LLM_STEP_FIELDS,
  MESSAGE_FIELDS,
  RETRIEVAL_STEP_FIELDS,
  type WireFields,
} from './wire-fields.js';

interface Shaped {
  shape: Record<string, { _zod: { optin?: string; def: { type: string } } }>;
}

/** What a schema's shape says each field is, in the words of wire-fields.ts. */
function kindsOf({ shape }: Shaped): Record<string, FieldKind> {
  return Object.fromEntries(
    Object.entries(shape).map(([name, field]) => {
      const identifying = field === (nonEmptyString as unknown) || field === (timestamp as unknown) || field._zod.def.type === 'enum';
      const optional = field._zod.optin === 'optional';
      return [name, identifying ? 'id' : optional ? 'value?' : 'value'];
    }),
  );
}

describe('the wire field tables', () => {
  const tables: [string, WireFields, Shaped][] = [
    ['message', MESSAGE_FIELDS, messageSchema as unknown as Shaped],
    ['LLM step', LLM_STEP_FIELDS, llmStepSchema as unknown as Shaped],
    ['retrieval step', RETRIEVAL_STEP_FIELDS, retrievalStepSchema as unknown as Shaped],
    ['embedding step', EMBEDDING_STEP_FIELDS, embeddingStepSchema as unknown as Shaped],
    ['feedback action', FEEDBACK_ACTION_FIELDS, conversationFeedbackActionSchema as unknown as Shaped],
    ['interaction', CONVERSATION_INTERACTION_FIELDS, conversationInteractionSchema as unknown as Shaped],
    ['conversation', CONVERSATION_FIELDS, sendConversationParamsSchema.shape.conversation as unknown as Shaped],
  ];

  it.each(tables)('%s: the same fields, in the same order and of the same kind, as its schema', (_, table, schema) => {
    expect(Object.entries(table)).toEqual(Object.entries(kindsOf(schema)));
  });
});
