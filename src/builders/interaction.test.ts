import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { conversationInteraction, interactionParams, type InteractionParamsInput } from './interaction.js';

const base = {
  conversation_id: 'c-1',
  end_user: 'u-1',
  input: 'Hi',
  output: 'Hello',
  time_start: new Date('2026-01-02T03:04:05.000Z'),
  time_end: '2026-01-02T03:04:06.500Z',
} satisfies InteractionParamsInput;

describe('interactionParams', () => {
  it('builds the full body with ISO timestamps and nothing that was not given', () => {
    expect(JSON.stringify(interactionParams(base))).toBe(
      '{"interaction":{"conversation_id":"c-1","input":"Hi","output":"Hello",' +
        '"time_start":"2026-01-02T03:04:05.000Z","time_end":"2026-01-02T03:04:06.500Z","end_user":"u-1"},' +
        '"traces":[]}',
    );
  });

  it('places traces, feedback and anonymize beside the interaction', () => {
    const body = interactionParams({
      ...base,
      tags: { country: 'IT' },
      hide_content: true,
      traces: [{ source: 'db', input: 'q', outputs: [] }],
      user_feedback: [{ slug: 'thumbs_up' }],
      anonymize: false,
    });
    expect(body.interaction.tags).toEqual({ country: 'IT' });
    expect(body.interaction.hide_content).toBe(true);
    expect(body.traces).toEqual([{ source: 'db', input: 'q', outputs: [] }]);
    expect(body.user_feedback).toEqual([{ slug: 'thumbs_up' }]);
    expect(body.anonymize).toBe(false);
  });

  it('reports every problem by its path in the flat input', () => {
    const bad = {
      ...base,
      end_user: '',
      time_end: 'yesterday',
      traces: [{ model: 'm', messages: [{ role: 'user' }], output: 'x' }],
      user_feedback: [{ slug: 'rating', value: 1.5 }],
    } as unknown as InteractionParamsInput;
    let error: unknown;
    try {
      interactionParams(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual([
      'time_end',
      'end_user',
      'traces[0].messages[0].content',
      'user_feedback[0].value',
    ]);
  });
});

describe('conversationInteraction', () => {
  it('builds one interaction of the bulk form', () => {
    expect(
      conversationInteraction({
        input: 'Hi',
        output: 'Hello',
        time_start: base.time_start,
        time_end: base.time_end,
        feedback_actions: [{ slug: 'rating', value: 4.5 }],
      }),
    ).toEqual({
      input: 'Hi',
      output: 'Hello',
      time_start: '2026-01-02T03:04:05.000Z',
      time_end: '2026-01-02T03:04:06.500Z',
      feedback_actions: [{ slug: 'rating', value: 4.5 }],
    });
  });

  it('throws on a bad step', () => {
    expect(() =>
      conversationInteraction({
        input: 'Hi',
        output: 'Hello',
        time_start: base.time_start,
        time_end: base.time_end,
        trace: [{ model: '', input: 'x' }],
      }),
    ).toThrow(/trace\[0\]\.model must not be empty/);
  });
});
