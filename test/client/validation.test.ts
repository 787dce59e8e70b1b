import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient, ValidationError, type SendInteractionParams } from '../../src/index.js';
import { createRecordingServer } from '../helpers/recording-server.js';

const BASE = 'https://backend.nebuly.com';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(service.reset);
afterAll(service.close);

const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: BASE, maxRetries: 0 });

async function validationError(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

const valid: SendInteractionParams = {
  interaction: {
    conversation_id: 'c-1',
    input: 'Hi',
    output: 'Hello',
    time_start: '2026-03-01T10:00:00Z',
    time_end: '2026-03-01T10:00:01Z',
    end_user: 'u',
  },
  traces: [],
};

describe('validation before sending', () => {
  it('lists every problem by path, and sends nothing', async () => {
    const error = await validationError(
      nebuly.interactions.send({
        interaction: { ...valid.interaction, end_user: undefined as unknown as string, time_end: 'soon' },
        traces: [
          { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }, { role: 'robot' as 'user', content: 'x' }], output: 'o' },
          { source: 'db', input: 'q', outputs: 'one' as unknown as string[] },
          { model: 'emb', input: 'x', input_tokens: -3 },
        ],
        user_feedback: [{ slug: 'thumbs_up', value: 1 }],
      }),
    );
    expect(error.issues.map((issue) => issue.pathText)).toEqual([
      'interaction.time_end',
      'interaction.end_user',
      'traces[0].messages[1].role',
      'traces[1].outputs',
      'traces[2].input_tokens',
      'user_feedback[0].value',
    ]);
    expect(error.message).toContain('interaction.end_user is required');
    expect(error.message).toContain('traces[0].messages[1].role must be one of "system", "user", "assistant", "tool"');
    expect(error.message).toContain('traces[1].outputs must be an array (got string)');
    expect(error.message).toContain('traces[2].input_tokens must be zero or more');
    expect(error.message).toContain("user_feedback[0].value is only used with slug 'rating'");
    expect(service.requests).toHaveLength(0);
  });

  it('refuses a field the wire does not have, naming the one meant, where zod alone would drop it in silence', async () => {
    const error = await validationError(
      nebuly.conversations.send({
        conversation: {
          end_user: 'u',
          interactions: [
            {
              input: 'Hi',
              output: 'Hello',
              time_start: '2026-03-01T10:00:00Z',
              time_end: '2026-03-01T10:00:01Z',
              tag: { plan: 'pro' },
              tags: { anything: 'goes', inAnyCase: 'yes' }, // a record: every key is the user's
              trace: [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello', inputTokens: 5 }],
            },
          ],
        },
      } as never),
    );
    expect(error.issues.map((issue) => `${issue.pathText} ${issue.message}`)).toEqual([
      'conversation.interactions[0].tag is not a field; did you mean `tags`?',
      'conversation.interactions[0].trace[0].inputTokens is not a field; did you mean `input_tokens`?',
    ]);
    expect(service.requests).toHaveLength(0);
  });

  it('names a camelCase spelling of a required field once, in the missing field\'s issue', async () => {
    const error = await validationError(
      nebuly.interactions.send({ ...valid, interaction: { ...valid.interaction, end_user: undefined as never, endUser: 'u' } as never }),
    );
    expect(error.issues.map((issue) => `${issue.pathText} ${issue.message}`)).toEqual([
      'interaction.end_user is required (got `endUser`: did you mean `end_user`?)',
    ]);
  });

  it('tells an LLM step from an embedding step by its shape', async () => {
    const error = await validationError(
      nebuly.interactions.send({
        ...valid,
        traces: [{ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] } as never],
      }),
    );
    expect(error.issues).toEqual([
      expect.objectContaining({ pathText: 'traces[0].output', message: 'is required' }),
    ]);
  });

  it('validates a step as the kind its keys say, never as another kind that happens to fit', async () => {
    const error = await validationError(
      nebuly.interactions.send({
        ...valid,
        traces: [
          // Would pass as an embedding step if its messages and output were stripped.
          { model: 'gpt-4o', input: 'Hi', messages: 'Hi', output: 'Hello' } as never,
          // Would pass as an embedding step if its source were stripped.
          { source: '', model: 'emb', input: 'q' } as never,
        ],
      }),
    );
    expect(error.issues.map((issue) => `${issue.pathText} ${issue.message}`)).toEqual([
      'traces[0].messages must be an array (got string)',
      'traces[1].source must not be empty',
      'traces[1].outputs is required',
      // A field of another kind is not one of this kind's: it would be dropped.
      'traces[0].input is not a field',
      'traces[1].model is not a field',
    ]);
    expect(service.requests).toHaveLength(0);
  });

  it('names the problem of a user timestamp in words about timestamps', async () => {
    const error = await validationError(
      nebuly.eligibleUsers.insert({
        users: [{ end_user: 'u', tags: {}, active_from: {} as unknown as string }],
      }),
    );
    expect(error.message).toBe(
      'Invalid params: users[0].active_from must be a Date or an ISO 8601 date or date-time string (got object)',
    );
  });

  it('rejects a cost that is not whole micro-dollars', async () => {
    const error = await validationError(
      nebuly.interactions.send({
        ...valid,
        traces: [{ model: 'm', messages: [], output: 'o', cost: 0.00003 }],
      }),
    );
    expect(error.message).toBe('Invalid params: traces[0].cost must be an integer (got 0.00003)');
  });

  it('validates every endpoint', async () => {
    const failures = await Promise.all([
      validationError(nebuly.conversations.send({ conversation: { end_user: '', interactions: [] } })),
      validationError(nebuly.eligibleUsers.insert({ users: [{ end_user: 'u', tags: { a: 1 as unknown as string }, active_from: '2026-01-01' }] })),
      validationError(nebuly.eligibleUsers.update({ users: [{ end_user: 'u', tags: {}, active_from: 'January' }] })),
      validationError(nebuly.eligibleUsers.delete({ users: [''] })),
      validationError(nebuly.platformUsers.update({ users: [{ end_user: 'u', tags: {}, active_from: new Date('nope') }] })),
      validationError(nebuly.interactions.delete({ filters: [{ kind: 'tag', values: ['x'] }] })),
    ]);
    expect(failures.map((error) => error.issues[0]?.pathText)).toEqual([
      'conversation.end_user',
      'users[0].tags.a',
      'users[0].active_from',
      'users[0]',
      'users[0].active_from',
      'filters[0].tag',
    ]);
    expect(service.requests).toHaveLength(0);
  });

  it('checks time ranges and filter values', async () => {
    const error = await validationError(
      nebuly.interactions.delete({
        filters: [{ kind: 'topic', values: [] }],
        time_range: { start: '2026-02-01T00:00:00Z', end: '2026-01-01T00:00:00Z' },
      }),
    );
    expect(error.issues.map((issue) => `${issue.pathText} ${issue.message}`)).toEqual([
      'filters[0].values must list at least one value',
      'time_range.end must not be before start',
    ]);
  });

  it('sends interaction timestamps in the UTC form of toISOString, whatever the offset given', async () => {
    await nebuly.interactions.send({
      ...valid,
      interaction: {
        ...valid.interaction,
        time_start: new Date(Date.UTC(2026, 2, 1, 10, 0, 0, 250)),
        time_end: '2026-03-01T11:00:01+01:00',
      },
    });
    const sent = JSON.parse(service.requests[0]!.body) as { interaction: Record<string, string> };
    expect(sent.interaction.time_start).toBe('2026-03-01T10:00:00.250Z');
    expect(sent.interaction.time_end).toBe('2026-03-01T10:00:01.000Z');
  });

  it('leaves optional fields out instead of sending null, and drops active_to: null', async () => {
    service.answer(() => Response.json({ users: [] }));
    await nebuly.eligibleUsers.update({
      users: [{ end_user: 'u', tags: {}, active_from: '2026-01-01', active_to: null }],
    });
    expect(service.requests[0]!.body).toBe('{"users":[{"end_user":"u","tags":{},"active_from":"2026-01-01"}]}');
  });
});
