import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { ENDPOINTS } from '../core/endpoints.js';
import type { IngestPayloads, Mask } from '../core/privacy-options.js';
import { applyMask, maskedKindOf } from './apply-mask.js';
import { MASK_FAILED, MaskError } from './errors.js';

const SECRET = 'my card is 4111 1111 1111 1111';

const body = (): IngestPayloads['conversation'] => ({
  conversation: {
    end_user: 'hash-1',
    interactions: [
      {
        input: SECRET,
        output: `re: ${SECRET}`,
        time_start: '2026-03-01T10:00:00.000Z',
        time_end: '2026-03-01T10:00:02.000Z',
        tags: { note: SECRET },
        feedback_actions: [{ slug: 'comment', text: SECRET }],
        trace: [
          { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: SECRET }] }], output: SECRET, input_tokens: 9 },
          { source: 'crm', input: SECRET, outputs: [SECRET] },
        ],
      },
    ],
  },
});

/** Everything an error shows: message, properties, inspect output. */
const shown = (error: unknown) => `${String(error)} ${JSON.stringify(error)} ${inspect(error, { depth: 10 })}`;

describe('applyMask', () => {
  it('calls the mask once, with the kind, and sends what it returns as validated', () => {
    const mask = vi.fn<Mask>((payload) => JSON.parse(JSON.stringify(payload).replaceAll(SECRET, 'x')));
    const { body: sent, error } = applyMask(mask, 'conversation', body());
    expect(mask).toHaveBeenCalledTimes(1);
    expect(mask.mock.calls[0]![1]).toEqual({ kind: 'conversation' });
    expect(error).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain(SECRET);
  });

  it('drops keys a mask adds that the wire does not have', () => {
    const { body: sent } = applyMask((payload) => ({ ...payload, extra: SECRET }) as never, 'conversation', body());
    expect(sent).not.toHaveProperty('extra');
  });

  it('replaces every content field with a placeholder when the mask throws, and says so without content', () => {
    const { body: sent, error } = applyMask(
      () => {
        throw new TypeError(`cannot mask ${SECRET}`);
      },
      'conversation',
      body(),
    );
    const interaction = sent!.conversation.interactions[0]!;
    expect(interaction.input).toBe(MASK_FAILED);
    expect(interaction.output).toBe(MASK_FAILED);
    expect(interaction.tags).toEqual({ note: MASK_FAILED });
    expect(interaction.feedback_actions).toEqual([{ slug: 'comment', text: MASK_FAILED }]);
    expect(interaction.trace).toEqual([
      { model: 'gpt-4o', messages: [{ role: 'user', content: MASK_FAILED }], output: MASK_FAILED, input_tokens: 9 },
      { source: 'crm', input: MASK_FAILED, outputs: [MASK_FAILED] },
    ]);
    expect(sent!.conversation.end_user).toBe('hash-1');
    expect(error).toBeInstanceOf(MaskError);
    expect(error).toMatchObject({ code: 'mask_threw', kind: 'conversation', fallback: 'placeholder' });
    expect(error!.message).toBe('The mask threw TypeError on a conversation body, so its content fields were sent as [MASK FAILED]');
    expect(shown(error)).not.toContain('4111');
  });

  it.each([
    ['a string', () => SECRET, 'returned string'],
    ['null', () => null, 'returned null'],
    ['an array', () => [SECRET], 'returned an array'],
    ['a Promise', async (payload: unknown) => payload, 'returned a Promise (a mask must be synchronous)'],
    ['nothing', () => undefined, 'returned undefined'],
  ])('fails closed when the mask returns %s', (_name, mask, what) => {
    const { body: sent, error } = applyMask(mask as unknown as Mask, 'conversation', body());
    expect(sent!.conversation.interactions[0]!.input).toBe(MASK_FAILED);
    expect(error).toMatchObject({ code: 'mask_invalid', fallback: 'placeholder' });
    expect(error!.message).toContain(what);
    expect(shown(error)).not.toContain('4111');
  });

  it('fails closed when the mask returns a body that no longer validates, naming where', () => {
    const mask: Mask = (payload) => {
      const copy = structuredClone(payload) as IngestPayloads['conversation'];
      (copy.conversation.interactions[0] as { input: unknown }).input = { text: SECRET };
      return copy;
    };
    const { body: sent, error } = applyMask(mask, 'conversation', body());
    expect(JSON.stringify(sent)).not.toContain('4111');
    expect(error).toMatchObject({ code: 'mask_invalid', fallback: 'placeholder' });
    expect(error!.issues.map((issue) => issue.path)).toEqual([['conversation', 'interactions', 0, 'input']]);
    expect(error!.message).toContain('conversation.interactions[0].input must be a string (got object)');
    expect(shown(error)).not.toContain('4111');
  });

  it('withholds the body when the mask broke it before throwing, as no placeholder body is then valid', () => {
    const mask: Mask = (payload) => {
      (payload as IngestPayloads['conversation']).conversation.end_user = '';
      throw new Error('half way');
    };
    const { body: sent, error } = applyMask(mask, 'conversation', body());
    expect(sent).toBeUndefined();
    expect(error).toMatchObject({ code: 'mask_threw', fallback: 'withheld' });
    expect(error!.message).toBe('The mask threw Error on a conversation body, so it was not sent (the mask had changed it before failing)');
  });

  it('replaces content the mask left in place when it failed on a body it had changed', () => {
    const mask: Mask = (payload) => {
      const interaction = (payload as IngestPayloads['conversation']).conversation.interactions[0]!;
      interaction.input = `${SECRET}!`;
      throw new Error('half way');
    };
    const { body: sent } = applyMask(mask, 'conversation', body());
    expect(JSON.stringify(sent)).not.toContain('4111');
  });

  it('masks a single-interaction body by its own schema', () => {
    const payload: IngestPayloads['interaction'] = {
      interaction: { conversation_id: 'c', input: SECRET, output: '', time_start: '2026-03-01T10:00:00.000Z', time_end: '2026-03-01T10:00:00.000Z', end_user: 'u' },
      traces: [],
    };
    const { body: sent, error } = applyMask(() => { throw new Error(); }, 'interaction', payload);
    expect(sent!.interaction.input).toBe(MASK_FAILED);
    expect(error!.kind).toBe('interaction');
  });
});

describe('the masked endpoints', () => {
  it('are every ingesting endpoint of the table: a new one must say what kind of body it takes', () => {
    const ingesting = Object.values(ENDPOINTS).filter((endpoint) => endpoint.ingests === true);
    expect(ingesting.length).toBeGreaterThan(1);
    for (const endpoint of ingesting) expect(maskedKindOf(endpoint), endpoint.path).toBeDefined();
    expect(maskedKindOf(ENDPOINTS.insertEligibleUsers)).toBeUndefined();
  });
});
