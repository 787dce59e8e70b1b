import { describe, expect, it } from 'vitest';
import type { IngestPayloads } from '../core/privacy-options.js';
import { maskPII } from './mask-pii.js';

// One piece of personal data for each content field, each told apart by its number.
const pii = (n: number) => `mail user${n}@example.com`;
const masked = 'mail [EMAIL]';

const interactionBody: IngestPayloads['interaction'] = {
  interaction: {
    conversation_id: 'c-1',
    input: pii(1),
    output: pii(2),
    time_start: '2026-03-01T10:00:00.000Z',
    time_end: '2026-03-01T10:00:02.000Z',
    end_user: 'hash-1',
    tags: { contact: pii(3) },
  },
  traces: [
    {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: pii(4) },
        { role: 'user', content: [{ type: 'text', text: pii(5) }, { type: 'image_url', image_url: { url: `https://x.io/?to=${pii(6)}` } }] },
      ],
      output: pii(7),
      input_tokens: 3,
    },
    { source: 'crm', input: pii(8), outputs: [pii(9), 'nothing here'] },
    { model: 'text-embedding-3-small', input: pii(10) },
  ],
  user_feedback: [{ slug: 'comment', text: pii(11) }],
  anonymize: false,
};

const conversationBody: IngestPayloads['conversation'] = {
  conversation: {
    end_user: 'hash-1',
    interactions: [
      {
        input: pii(1),
        output: pii(2),
        time_start: '2026-03-01T10:00:00.000Z',
        time_end: '2026-03-01T10:00:02.000Z',
        tags: { contact: pii(3) },
        feedback_actions: [{ slug: 'comment', text: pii(4) }, { slug: 'rating', value: 4 }],
        trace: interactionBody.traces,
      },
    ],
  },
};

const feedbackBody = {
  action: { slug: 'comment', text: pii(1) },
  metadata: { input: pii(2), output: pii(3), end_user: 'hash-1', timestamp: '2026-03-01T10:00:03.000Z' },
};

const tagsBody: IngestPayloads['tags'] = {
  tags: { contact: pii(1), plan: 'pro' },
  metadata: { end_user: 'hash-1', time_start: '2026-03-01T10:00:00.000Z', input: pii(2), output: pii(3) },
};

describe('maskPII', () => {
  it.each([
    ['interaction', interactionBody, 11],
    ['conversation', conversationBody, 11],
    ['feedback', feedbackBody, 3],
    ['tags', tagsBody, 3],
  ] as const)('masks every content field of a %s body, and nothing else', (kind, body, fields) => {
    const before = JSON.stringify(body);
    const result = maskPII(body as never, { kind: kind as never });
    const json = JSON.stringify(result);
    expect(json).not.toMatch(/@example\.com/);
    expect(json.split('[EMAIL]')).toHaveLength(fields + 1);
    // The part's type, ids, user, model, times, counts and tag names are not content.
    if (kind !== 'feedback' && kind !== 'tags') expect(json).toContain('"type":"image_url"');
    expect(json).toContain('hash-1');
    expect(JSON.stringify(body)).toBe(before); // the body it was given is unchanged
  });

  it('tells the kind by the keys when called without a context', () => {
    expect(maskPII(conversationBody)).toEqual(maskPII(conversationBody, { kind: 'conversation' }));
    expect(maskPII(feedbackBody).metadata.input).toBe(masked);
    // Tags name their interaction by `metadata` as feedback does, and carry `tags`.
    expect(maskPII(tagsBody)).toEqual(maskPII(tagsBody, { kind: 'tags' }));
    expect(maskPII(tagsBody).tags).toEqual({ contact: masked, plan: 'pro' });
  });

  it('is deterministic, so feedback sent later still matches its masked interaction', () => {
    const sent = maskPII(interactionBody);
    const late = maskPII({ ...feedbackBody, metadata: { ...feedbackBody.metadata, input: interactionBody.interaction.input } });
    expect(late.metadata.input).toBe(sent.interaction.input);
  });

  it('replaces content parts nested too deep to scan instead of sending them', () => {
    let deep: unknown = pii(1);
    for (let depth = 0; depth < 150; depth += 1) deep = { inner: deep };
    const body = { conversation: { end_user: 'u', interactions: [{ input: '', output: '', time_start: 't', time_end: 't', trace: [
      { model: 'm', output: '', messages: [{ role: 'user', content: [{ type: 'x', deep }] }] },
    ] }] } };
    expect(JSON.stringify(maskPII(body))).not.toContain('@example.com');
  });
});
