import { describe, expect, it } from 'vitest';
import { REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { conversationParams, embeddingStep, interactionParams, llmStep, retrievalStep } from '../fixtures.js';
import { PROJECT_A, useTarget, type TargetFactory } from '../target.js';

export function ingestionCases(factory: TargetFactory): void {
  describe('ingestion', () => {
    const target = useTarget(factory);

    it('interactions.send is answered 202 {"status":"accepted"} and stored with its trace and feedback', async () => {
      const params = interactionParams({ input: 'Hi', output: 'Hello!', tags: { country: 'IT' }, feedback: ['thumbs_up'] });
      const answer = await target().client().interactions.send(params);

      expect(answer).toEqual({ status: 202, body: { status: 'accepted' } });
      const [stored, ...rest] = target().store.listInteractions(PROJECT_A);
      expect(rest).toEqual([]);
      expect(stored).toMatchObject({
        source: 'interaction',
        conversation_id: 'conversation-under-test',
        end_user: 'user-1',
        input: 'Hi',
        output: 'Hello!',
        time_start: '2026-03-01T10:00:00.000Z',
        time_end: '2026-03-01T10:00:01.500Z',
        tags: { country: 'IT' },
        trace: [llmStep],
        feedback_actions: [{ slug: 'thumbs_up' }],
        hide_content: false,
        anonymize: true,
      });
    });

    it('keeps hide_content and anonymize as sent', async () => {
      const params = interactionParams({ input: 'secret' });
      await target().client().interactions.send({
        ...params,
        interaction: { ...params.interaction, hide_content: true },
        anonymize: false,
      });

      expect(target().store.listInteractions(PROJECT_A)[0]).toMatchObject({ hide_content: true, anonymize: false });
    });

    it('conversations.send stores each interaction under one conversation, with every step kind and feedback', async () => {
      const answer = await target().client().conversations.send(conversationParams('user-7'));

      expect(answer.status).toBe(202);
      const stored = target().store.listInteractions(PROJECT_A);
      expect(stored).toHaveLength(2);
      expect(stored[0]).toMatchObject({
        source: 'conversation',
        end_user: 'user-7',
        input: 'Can I change my flight?',
        time_start: '2026-03-01T10:00:00.000Z',
        time_end: '2026-03-01T10:01:00.000Z',
        tags: { channel: 'web' },
        trace: [embeddingStep, retrievalStep, llmStep],
        feedback_actions: [{ slug: 'thumbs_up' }],
        anonymize: true,
      });
      expect(stored[1]).toMatchObject({
        end_user: 'user-7',
        tags: {},
        feedback_actions: [{ slug: 'rating', value: 4.5 }, { slug: 'comment', text: 'fast' }],
      });
      expect(stored[1]?.conversation_id).toBe(stored[0]?.conversation_id);
    });

    it('gives each bulk conversation its own conversation_id', async () => {
      await target().client().conversations.send(conversationParams());
      await target().client().conversations.send(conversationParams());

      const ids = new Set(target().store.listInteractions(PROJECT_A).map((stored) => stored.conversation_id));
      expect(ids.size).toBe(2);
    });

    it('records the exact bytes the client sent', async () => {
      await target().client().conversations.send(conversationParams());

      const recorded = target().requests.last({ path: REFERENCE_PATHS.conversation });
      expect(recorded).toMatchObject({ method: 'POST', status: 202, project: PROJECT_A });
      expect(JSON.parse(recorded?.body ?? 'null')).toEqual(conversationParams());
    });

    it('answers store reads with copies that cannot change the store', async () => {
      await target().client().interactions.send(interactionParams({ input: 'Hi' }));
      const copy = target().store.listInteractions(PROJECT_A)[0];
      if (copy !== undefined) copy.input = 'changed';

      expect(target().store.listInteractions(PROJECT_A)[0]?.input).toBe('Hi');
    });
  });
}
