import { describe, expect, it } from 'vitest';
import { createReferenceHandler } from './handler.js';

const single = (conversationId: string, endUser: string) => ({
  interaction: {
    conversation_id: conversationId,
    input: 'Hi',
    output: 'Hello!',
    time_start: '2026-03-01T10:00:00Z',
    time_end: '2026-03-01T10:00:01Z',
    end_user: endUser,
  },
  traces: [],
});

describe('GET /_reference/conversations', () => {
  it('keeps the conversation_id the app sent, and finds a conversation by it or by its end user', async () => {
    const reference = createReferenceHandler({ apiKeys: { k: 'p' } });
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    for (const [id, user] of [['chat-1', 'user-a'], ['chat-2', 'user-b'], ['chat-1', 'user-a']] as const) {
      const sent = await reference.fetch(
        new Request('http://h/event-ingestion/api/v3/events/trace_interaction', { method: 'POST', headers, body: JSON.stringify(single(id, user)) }),
      );
      expect(sent.status).toBe(202);
    }
    const list = async (query: string) => {
      const response = await reference.fetch(new Request(`http://h/_reference/conversations${query}`, { headers }));
      return ((await response.json()) as { conversations: { conversation_id: string; interactions: unknown[] }[] }).conversations;
    };
    expect((await list('')).map((conversation) => conversation.conversation_id)).toEqual(['chat-1', 'chat-2']);
    const [found] = await list('?conversation_id=chat-1');
    expect(found).toMatchObject({ conversation_id: 'chat-1', end_user: 'user-a' });
    expect(found?.interactions).toHaveLength(2);
    expect((await list('?end_user=user-b')).map((conversation) => conversation.conversation_id)).toEqual(['chat-2']);
    expect(await list('?conversation_id=chat-3')).toEqual([]);
  });
});
