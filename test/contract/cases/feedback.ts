import { describe, expect, it } from 'vitest';
import type { SendFeedbackParams } from '../../../src/index.js';
import { INSPECTION_PATHS, REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { at, conversationParams, interactionParams } from '../fixtures.js';
import { authorized, PROJECT_A, useTarget, type TargetFactory } from '../target.js';

/** Feedback on the first interaction of `conversationParams()`, which ended at minute 1. */
function feedback(overrides: Partial<SendFeedbackParams['metadata']> = {}, minute = 5): SendFeedbackParams {
  return {
    action: { slug: 'thumbs_down', text: 'Not what I asked' },
    metadata: {
      end_user: 'user-1',
      input: 'Can I change my flight?',
      output: 'Yes, for free until 24 hours before departure.',
      timestamp: at(minute),
      ...overrides,
    },
  };
}

export function feedbackCases(factory: TargetFactory): void {
  describe('feedback after the fact', () => {
    const target = useTarget(factory);

    it('interactions.sendFeedback is answered 202 and linked to the interaction by end_user, input and output', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams());
      const answer = await client.interactions.sendFeedback(feedback());

      expect(answer).toEqual({ status: 202, body: { status: 'accepted' } });
      const [first] = target().store.listInteractions(PROJECT_A);
      expect(target().store.listFeedback(PROJECT_A)).toEqual([
        expect.objectContaining({
          interaction_id: first?.id,
          action: { slug: 'thumbs_down', text: 'Not what I asked' },
          timestamp: at(5),
          anonymize: true,
        }),
      ]);
      expect(JSON.parse(target().requests.last()?.body ?? '')).toEqual({
        action: { slug: 'thumbs_down', text: 'Not what I asked' },
        metadata: { ...feedback().metadata, timestamp: '2026-03-01T10:05:00.000Z' },
      });
    });

    it('accepts the action under `feedback`, as one page of the service’s docs names it', async () => {
      await target().client().interactions.send(interactionParams({ input: 'Hi', output: 'Hello' }));
      const body = { feedback: { slug: 'rating', value: 4 }, metadata: { end_user: 'user-1', input: 'Hi', output: 'Hello', timestamp: at(2) } };
      const answer = await target().fetch(REFERENCE_PATHS.feedback, { method: 'POST', headers: authorized(), body: JSON.stringify(body) });

      expect(answer.status).toBe(202);
      expect(target().store.listFeedback(PROJECT_A)[0]?.action).toEqual({ slug: 'rating', value: 4 });
    });

    it('no stored interaction matches: 422 at metadata, nothing stored', async () => {
      await target().client().conversations.send(conversationParams());
      await expect(target().client().interactions.sendFeedback(feedback({ output: 'another answer' }))).rejects.toMatchObject({
        status: 422,
        body: { detail: [expect.objectContaining({ loc: ['body', 'metadata'], type: 'no_interaction' })] },
      });
      expect(target().store.listFeedback(PROJECT_A)).toEqual([]);
    });

    it('a timestamp not after the interaction’s time_end: 422 at metadata.timestamp', async () => {
      await target().client().conversations.send(conversationParams());
      await expect(target().client().interactions.sendFeedback(feedback({}, 1))).rejects.toMatchObject({
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'metadata', 'timestamp'],
              msg: `must be after the interaction's time_end (${at(1)})`,
              type: 'not_after_time_end',
            },
          ],
        },
      });
    });

    it('validates with the same schema as the client: a bad slug is a 422 naming the field', async () => {
      const body = { action: { slug: 'like' }, metadata: feedback().metadata };
      const answer = await target().fetch(REFERENCE_PATHS.feedback, { method: 'POST', headers: authorized(), body: JSON.stringify(body) });
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body', 'action', 'slug']);
    });

    it('GET /_reference/conversations lists the project’s conversations with their late feedback', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams());
      await client.interactions.sendFeedback(feedback());
      const answer = await target().fetch(INSPECTION_PATHS.conversations, { headers: authorized() });
      const { conversations } = (await answer.json()) as { conversations: { interactions: unknown[]; feedback: unknown[] }[] };

      expect(conversations).toHaveLength(1);
      expect(conversations[0]?.interactions).toHaveLength(2);
      expect(conversations[0]?.feedback).toEqual([expect.objectContaining({ action: feedback().action })]);
      expect(conversations).toEqual(target().store.listConversations(PROJECT_A));
    });

    it('deleting an interaction deletes the feedback linked to it', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams());
      await client.interactions.sendFeedback(feedback());
      await client.interactions.delete({ filters: [{ kind: 'user_query', values: ['change my flight'] }] });
      expect(target().store.listFeedback(PROJECT_A)).toEqual([]);
    });

    it('the listing needs a key and is read-only', async () => {
      expect((await target().fetch(INSPECTION_PATHS.conversations)).status).toBe(401);
      const post = await target().fetch(INSPECTION_PATHS.conversations, { method: 'POST', headers: authorized(), body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
    });
  });
}
