import { describe, expect, it } from 'vitest';
import { formatPath } from '../utils/issues.js';
import type { ConversationInteraction } from '../schemas/index.js';
import type { Issue } from '../utils/issues.js';
import { checkInteraction } from './payload.js';
import type { InteractionRecord } from './record.js';

interface ConversationRecord {
  conversationId: string;
  endUser: string;
  tags: Record<string, string> | undefined;
  interactions: InteractionRecord[];
}

/**
 * Each interaction checked as the recorder does, gathered as one conversation: the wire
 * body of what is valid, and the issues by their path in it.
 */
async function buildConversationPayload(record: ConversationRecord) {
  const issues: Issue[] = [];
  const interactions: ConversationInteraction[] = [];
  for (const [index, recorded] of record.interactions.entries()) {
    const checked = await checkInteraction(recorded, record.tags);
    issues.push(...checked.issues.map((issue) => ({ ...issue, path: ['interactions', index, ...issue.path] })));
    if (checked.interaction !== undefined) interactions.push(checked.interaction);
  }
  const body = interactions.length === 0 && issues.length > 0 ? undefined : { conversation: { end_user: record.endUser, interactions } };
  return { body, issues };
}

const T0 = Date.parse('2026-03-04T05:06:07.000Z');

function turn(overrides: Partial<InteractionRecord> = {}): InteractionRecord {
  return {
    id: 'i-1',
    order: 1,
    input: 'in',
    output: 'out',
    timeStart: T0,
    timeEnd: T0 + 1500,
    ended: true,
    taken: true,
    tags: undefined,
    featureFlag: undefined,
    trace: [],
    feedback: undefined,
    ...overrides,
  };
}

function record(interactions: InteractionRecord[], tags?: Record<string, string>): ConversationRecord {
  return { conversationId: 'c-1', endUser: 'u-1', tags, interactions };
}

const paths = (result: Awaited<ReturnType<typeof buildConversationPayload>>) => result.issues.map((issue) => formatPath(issue.path));

describe('buildConversationPayload', () => {
  it('builds the wire body: ISO timestamps, steps in order, no empty optional fields', async () => {
    const result = await buildConversationPayload(
      record([
        turn({
          trace: [
            { source: 'db', input: 'q', outputs: ['a'] },
            { model: 'gpt', messages: [{ role: 'user', content: 'in' }], output: 'out', input_tokens: 3 },
            { model: 'emb', input: 'q' },
          ],
          feedback: [{ slug: 'rating', value: 4 }],
        }),
      ]),
    );
    expect(result.issues).toEqual([]);
    expect(JSON.stringify(result.body)).toBe(
      '{"conversation":{"end_user":"u-1","interactions":[{"input":"in","output":"out",' +
        '"time_start":"2026-03-04T05:06:07.000Z","time_end":"2026-03-04T05:06:08.500Z",' +
        '"feedback_actions":[{"slug":"rating","value":4}],' +
        '"trace":[{"source":"db","input":"q","outputs":["a"]},' +
        '{"model":"gpt","messages":[{"role":"user","content":"in"}],"output":"out","input_tokens":3},' +
        '{"model":"emb","input":"q"}]}]}}',
    );
  });

  it("merges the conversation's tags under each interaction's own", async () => {
    const result = await buildConversationPayload(
      record([turn({ tags: { plan: 'pro', lang: 'it' } }), turn(), turn({ tags: {} })], { plan: 'free', app: 'web' }),
    );
    expect(result.body?.conversation.interactions.map((interaction) => interaction.tags)).toEqual([
      { plan: 'pro', app: 'web', lang: 'it' },
      { plan: 'free', app: 'web' },
      { plan: 'free', app: 'web' },
    ]);
  });

  it('merges only tags that are an object; others are reported by path and the conversation’s apply', async () => {
    const notTags: unknown[] = ['ab', ['a', 'b'], 5, new Map([['a', 'b']]), new Date(0)];
    for (const conversationTags of [{ app: 'web' }, undefined]) {
      const result = await buildConversationPayload(
        record([...notTags.map((tags) => turn({ tags })), turn({ tags: Object.assign(Object.create(null) as object, { plan: 'pro' }) })], conversationTags),
      );
      expect(paths(result)).toEqual(notTags.map((_, index) => `interactions[${index}].tags`));
      expect(result.issues.every((issue) => /must be an object/.test(issue.message))).toBe(true);
      const sent = result.body?.conversation.interactions.map((interaction) => interaction.tags);
      expect(sent).toEqual([...notTags.map(() => conversationTags), { ...conversationTags, plan: 'pro' }]);
    }
  });

  it('leaves tags out when there are none', async () => {
    const result = await buildConversationPayload(record([turn({ tags: {} })]));
    expect(result.body?.conversation.interactions[0]).not.toHaveProperty('tags');
  });

  it('leaves out only the invalid step, feedback action or tag, and names each by path', async () => {
    const result = await buildConversationPayload(
      record([
        turn(),
        turn({
          tags: { good: 'yes', bad: 42 as unknown as string },
          trace: [
            { model: 'gpt', messages: [{ role: 'user', content: 'ok' }], output: 'x' },
            { model: 'gpt', messages: [{ role: 'robot', content: 'x' }], output: 'x' },
            { source: 'db', input: 'q', outputs: ['a'] },
          ],
          feedback: [{ slug: 'nope' }, { slug: 'thumbs_up' }],
        }),
      ]),
    );
    expect(paths(result)).toEqual([
      'interactions[1].tags.bad',
      'interactions[1].feedback_actions[0].slug',
      'interactions[1].trace[1].messages[0].role',
    ]);
    const kept = result.body?.conversation.interactions[1];
    expect(kept?.tags).toEqual({ good: 'yes' });
    expect(kept?.trace).toHaveLength(2);
    expect(kept?.trace?.[1]).toEqual({ source: 'db', input: 'q', outputs: ['a'] });
    expect(kept?.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
    expect(result.body?.conversation.interactions).toHaveLength(2);
  });

  it('reports a missing field of an LLM step as the LLM step’s', async () => {
    const result = await buildConversationPayload(record([turn({ trace: [{ model: 'gpt', messages: undefined, output: 'x' }] })]));
    expect(paths(result)).toEqual(['interactions[0].trace[0].messages']);
    expect(result.issues[0]?.message).toBe('is required');
  });

  it('leaves out an interaction whose input or output is invalid', async () => {
    const result = await buildConversationPayload(record([turn({ input: 7 }), turn({ input: 'kept' })]));
    expect(paths(result)).toEqual(['interactions[0].input']);
    expect(result.body?.conversation.interactions.map((interaction) => interaction.input)).toEqual(['kept']);
  });

  it('gives no body when nothing is valid', async () => {
    const result = await buildConversationPayload(record([turn({ output: undefined })]));
    expect(result.body).toBeUndefined();
    expect(paths(result)).toEqual(['interactions[0].output']);
  });

  it('reports a clock that returned no time', async () => {
    const result = await buildConversationPayload(record([turn({ timeEnd: Number.NaN }), turn()]));
    expect(paths(result)).toEqual(['interactions[0].time_end']);
    expect(result.body?.conversation.interactions).toHaveLength(1);
  });
});
