import { describe, expect, it } from 'vitest';
import type { DeleteInteractionsParams, InteractionFilter } from '../../../src/index.js';
import { at, interactionParams, type InteractionSeed } from '../fixtures.js';
import { PROJECT_A, useTarget, type ContractTarget, type TargetFactory } from '../target.js';

const SEEDS: InteractionSeed[] = [
  { input: 'Refund my TICKET', output: 'Refund issued.', end_user: 'alice', tags: { country: 'IT', topic: 'refunds' }, minute: 0, feedback: ['thumbs_down'] },
  { input: 'Change seat', output: 'Seat changed; ticket unchanged.', end_user: 'bob', tags: { country: 'FR', user_intent: 'change' }, minute: 10, feedback: ['thumbs_up', 'copy_output'] },
  { input: 'Baggage rules?', output: 'One bag.', end_user: 'alice', tags: { country: 'DE', type_of_problem: 'policy', negative_user_intent: 'complain' }, minute: 20 },
  { input: 'Hello', output: 'Hi!', end_user: 'carol', tags: {}, minute: 30, feedback: ['rating'] },
];

async function seed(target: ContractTarget): Promise<void> {
  const client = target.client();
  for (const item of SEEDS) await client.interactions.send(interactionParams(item));
}

/** Deletes with `params`; answers the message and the inputs left in project A. */
async function deleteAndList(target: ContractTarget, params: DeleteInteractionsParams) {
  const { message } = await target.client().interactions.delete(params);
  return { message, left: target.store.listInteractions(PROJECT_A).map((stored) => stored.input) };
}

function only(filter: InteractionFilter): DeleteInteractionsParams {
  return { filters: [filter] };
}

export function deleteInteractionsCases(factory: TargetFactory): void {
  describe('delete-interactions', () => {
    const target = useTarget(factory);

    it('with no filter and no time range deletes every interaction of the project, and says how many', async () => {
      await seed(target());
      await expect(deleteAndList(target(), {})).resolves.toEqual({ message: '4 interactions deleted', left: [] });
    });

    it('answers 200 with a message when nothing matches', async () => {
      await seed(target());
      const { message, left } = await deleteAndList(target(), only({ kind: 'user', values: ['nobody'] }));
      expect(message).toBe('0 interactions deleted');
      expect(left).toHaveLength(4);
    });

    it('keyword: a case-insensitive substring of the input or the output', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'keyword', values: ['ticket'] }));
      // 'Refund my TICKET' (input) and 'Seat changed; ticket unchanged.' (output) match.
      expect(left).toEqual(['Baggage rules?', 'Hello']);
    });

    it('user_query: a case-insensitive substring of the input only', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'user_query', values: ['ticket'] }));
      expect(left).toEqual(['Change seat', 'Baggage rules?', 'Hello']);
    });

    it('user: end_user equals a value', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'user', values: ['alice'] }));
      expect(left).toEqual(['Change seat', 'Hello']);
    });

    it('tag: the named tag equals a value, exactly', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'tag', tag: 'country', values: ['FR', 'de'] }));
      expect(left).toEqual(['Refund my TICKET', 'Baggage rules?', 'Hello']);
    });

    it('user_feedback: any feedback action has a listed slug', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'user_feedback', values: ['copy_output', 'rating'] }));
      expect(left).toEqual(['Refund my TICKET', 'Baggage rules?']);
    });

    it.each([
      ['topic', 'refunds', 'Refund my TICKET'],
      ['user_intent', 'change', 'Change seat'],
      ['type_of_problem', 'policy', 'Baggage rules?'],
      ['negative_user_intent', 'complain', 'Baggage rules?'],
    ] as const)('%s: matches the interaction tag of the same name', async (kind, value, deleted) => {
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind, values: [value] }));
      expect(left).toEqual(SEEDS.map((s) => s.input).filter((input) => input !== deleted));
    });

    it('values of one filter are OR’d, filters are AND’d', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), {
        filters: [
          { kind: 'user', values: ['alice', 'bob'] },
          { kind: 'tag', tag: 'country', values: ['IT', 'FR'] },
        ],
      });
      expect(left).toEqual(['Baggage rules?', 'Hello']);
    });

    it('time_range: start inclusive, end exclusive, on time_start', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), { time_range: { start: at(10), end: at(30) } });
      expect(left).toEqual(['Refund my TICKET', 'Hello']);
    });

    it('time_range with only a start, or only an end', async () => {
      await seed(target());
      expect((await deleteAndList(target(), { time_range: { start: at(20) } })).left).toEqual([
        'Refund my TICKET',
        'Change seat',
      ]);
      expect((await deleteAndList(target(), { time_range: { end: at(10) } })).left).toEqual(['Change seat']);
    });

    it('time_range and filters together', async () => {
      await seed(target());
      const { left } = await deleteAndList(target(), {
        filters: [{ kind: 'user', values: ['alice'] }],
        time_range: { start: at(5) },
      });
      expect(left).toEqual(['Refund my TICKET', 'Change seat', 'Hello']);
    });

    it('deletes interactions of bulk conversations too', async () => {
      await target().client().conversations.send({
        conversation: {
          end_user: 'dave',
          interactions: [{ input: 'Bulk question', output: 'Bulk answer', time_start: at(0), time_end: at(1) }],
        },
      });
      await seed(target());
      const { left } = await deleteAndList(target(), only({ kind: 'user', values: ['dave'] }));
      expect(left).toEqual(SEEDS.map((s) => s.input));
    });
  });
}
