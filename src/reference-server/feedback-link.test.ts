import { describe, expect, it } from 'vitest';
import { linkFeedback } from './feedback-link.js';
import type { StoredInteraction } from './stored.js';

function interaction(id: string, time_end: string, fields: Partial<StoredInteraction> = {}): StoredInteraction {
  return {
    id,
    source: 'interaction',
    conversation_id: 'c',
    end_user: 'u',
    input: 'Hi',
    output: 'Hello',
    time_start: time_end,
    time_end,
    tags: {},
    trace: [],
    feedback_actions: [],
    hide_content: false,
    anonymize: true,
    idempotency_key: null,
    received_at: time_end,
    ...fields,
  };
}

const metadata = (timestamp: string) => ({ end_user: 'u', input: 'Hi', output: 'Hello', timestamp });

describe('linkFeedback', () => {
  const stored = [
    interaction('i-1', '2026-03-01T10:00:00.000Z'),
    interaction('i-2', '2026-03-01T12:00:00.000Z'),
    interaction('other', '2026-03-01T11:00:00.000Z', { output: 'Bye' }),
  ];

  it('links to the latest matching interaction that ended before the feedback (the same question asked twice)', () => {
    expect(linkFeedback(stored, metadata('2026-03-01T11:00:00.000Z'))).toMatchObject({ id: 'i-1' });
    expect(linkFeedback(stored, metadata('2026-03-01T13:00:00.000Z'))).toMatchObject({ id: 'i-2' });
  });

  it('says why when it cannot link', () => {
    expect(linkFeedback(stored, { ...metadata('2026-03-02T00:00:00.000Z'), output: 'never said' })).toEqual({ reason: 'no_interaction' });
    expect(linkFeedback(stored, metadata('2026-03-01T10:00:00.000Z'))).toEqual({
      reason: 'not_after_time_end',
      latestTimeEnd: '2026-03-01T12:00:00.000Z',
    });
  });
});
