import { describe, expect, it } from 'vitest';
import {
  AbortError,
  type ExportedInteraction,
  NotFoundError,
  UnprocessableEntityError,
  ValidationError,
  type Variant,
} from '../../../src/index.js';
import { REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { at, conversationParams, interactionParams } from '../fixtures.js';
import { authorized, KEY_B, PROJECT_A, useTarget, type TargetFactory } from '../target.js';

const DAY = 86_400_000;
const T = Date.parse('2026-10-01T00:00:00.000Z');
const day = (days: number) => new Date(T + days * DAY).toISOString();

const PROMPTS: Variant[] = [
  { kind: 'prompt', prompt: 'Be terse.', config_params: [] },
  { kind: 'prompt', prompt: 'Be friendly.', config_params: [{ name: 'temperature', value: 0.7, param_type: 'number' }] },
];
const MODELS: Variant[] = [{ kind: 'model', model_id: 'gpt-4o-mini', config_params: [{ name: 'top_p', value: 0.9, param_type: 'number' }] }];
const EXPERIMENTS = { 'new-prompt': PROMPTS, 'cheap-model': MODELS, 'rag-index': [{ kind: 'rag_source', rag_source: 'kb-v2', config_params: [] }] as Variant[] };

/** One interaction sent alone, at `time_start` (ISO), of conversation `conversation`. */
function sent(input: string, timeStart: string, conversation = 'c-1', endUser = 'user-1') {
  const params = interactionParams({ input, end_user: endUser });
  return {
    ...params,
    interaction: { ...params.interaction, conversation_id: conversation, time_start: timeStart, time_end: new Date(Date.parse(timeStart) + 1000) },
  };
}

export function platformCases(factory: TargetFactory): void {
  describe('A/B variants and feature flags', () => {
    const target = useTarget(factory, { experiments: EXPERIMENTS });

    it('variants answers, for each configured flag, a variant of its kind; the same user always the same one; unknown flags left out', async () => {
      const client = target().client();
      const { variants } = await client.variants({ user: 'user-1', feature_flags: ['new-prompt', 'cheap-model', 'rag-index', 'no-such-flag'] });

      expect(variants.map((found) => found.feature_flag_name)).toEqual(['new-prompt', 'cheap-model', 'rag-index']);
      expect(PROMPTS).toContainEqual(variants[0]?.variant);
      expect(variants[1]?.variant).toEqual(MODELS[0]);
      expect(variants[2]?.variant).toEqual({ kind: 'rag_source', rag_source: 'kb-v2', config_params: [] });
      const again = await client.variants({ user: 'user-1', feature_flags: ['new-prompt'] });
      expect(again.variants[0]?.variant).toEqual(variants[0]?.variant);
      expect(JSON.parse(target().requests.last()?.body ?? '')).toEqual({ user: 'user-1', feature_flags: ['new-prompt'] });
    });

    it('users are spread over the variants of a flag', async () => {
      const client = target().client();
      const prompts = new Set<string>();
      for (let index = 0; index < 40; index += 1) {
        const { variants } = await client.variants({ user: `user-${index}`, feature_flags: ['new-prompt'] });
        const variant = variants[0]?.variant;
        if (variant?.kind === 'prompt') prompts.add(variant.prompt);
      }
      expect(prompts).toEqual(new Set(['Be terse.', 'Be friendly.']));
    });

    it('variants rejects bad params by path, nothing sent', async () => {
      const error = await target().client().variants({ user: '', feature_flags: [] }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['user'], ['feature_flags']]);
      expect(target().requests.all()).toEqual([]);
    });

    it('the server answers a body without feature_flags 422 by its location', async () => {
      const response = await target().fetch(REFERENCE_PATHS.variants, { method: 'POST', headers: authorized(), body: JSON.stringify({ user: 'u' }) });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ detail: [{ loc: ['body', 'feature_flags'], msg: 'is required', type: 'missing' }] });
    });

    it('feature_flag goes on the wire and into the store from interactions.send and conversations.send', async () => {
      const client = target().client();
      const single = interactionParams({ input: 'Hi' });
      await client.interactions.send({ ...single, interaction: { ...single.interaction, feature_flag: ['new-prompt'] } });
      expect(JSON.parse(target().requests.last()?.body ?? '').interaction.feature_flag).toEqual(['new-prompt']);
      const bulk = conversationParams();
      const [first, second] = bulk.conversation.interactions;
      await client.conversations.send({ conversation: { ...bulk.conversation, interactions: [{ ...first!, feature_flag: ['cheap-model', 'new-prompt'] }, second!] } });
      expect(JSON.parse(target().requests.last()?.body ?? '').conversation.interactions[0].feature_flag).toEqual(['cheap-model', 'new-prompt']);

      const stored = target().store.listInteractions(PROJECT_A);
      expect(stored.map((interaction) => interaction.feature_flag)).toEqual([['new-prompt'], ['cheap-model', 'new-prompt'], undefined]);
    });

    it('a feature_flag that is no list of names is refused by path, nothing sent', async () => {
      const single = interactionParams({ input: 'Hi' });
      const error = await target()
        .client()
        .interactions.send({ ...single, interaction: { ...single.interaction, feature_flag: 'new-prompt' as never } })
        .catch((caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['interaction', 'feature_flag']]);
      expect(target().requests.all()).toEqual([]);
    });
  });

  describe('reading interactions: list, export, detail', () => {
    const target = useTarget(factory);

    /** Five interactions over two conversations, sent out of order. */
    async function seed(): Promise<void> {
      const client = target().client();
      await client.interactions.send(sent('third', day(2), 'c-1'));
      await client.interactions.send(sent('first', day(0), 'c-1'));
      await client.interactions.send(sent('second', day(1), 'c-2', 'user-2'));
      await client.interactions.send(sent('fourth', day(3), 'c-1'));
      await client.interactions.send(sent('fifth', day(4), 'c-2', 'user-2'));
    }

    it('list awaited is one page { total, data }, by time, in the window, with its limit and offset', async () => {
      await seed();
      const page = await target().client().interactions.list({ time_range: { start: day(0), end: day(4) }, limit: 2, offset: 1 });

      expect(page).toMatchObject({ total: 4, offset: 1, limit: 2 });
      expect(page.data.map((row) => row.input_text)).toEqual(['second', 'third']);
      expect(page.data[0]).toMatchObject({ end_user: 'user-2', output_text: 'An answer.', timestamp: day(1) });
      expect(JSON.parse(target().requests.last()?.body ?? '')).toEqual({
        time_range: { start: day(0), end: day(4) },
        filters: [],
        limit: 2,
        offset: 1,
      });
    });

    it('list iterated with for await gives every row of every page, asking each page once', async () => {
      await seed();
      const rows: string[] = [];
      for await (const row of target().client().interactions.list({ time_range: { start: day(0), end: day(10) }, limit: 2 })) rows.push(row.input_text);

      expect(rows).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
      const offsets = target().requests.all({ path: REFERENCE_PATHS.listInteractions }).map((request) => JSON.parse(request.body).offset as number);
      expect(offsets).toEqual([0, 2, 4]);
    });

    it('list applies its filters', async () => {
      await seed();
      const rows = [];
      for await (const row of target().client().interactions.list({ time_range: { start: day(0), end: day(10) }, filters: [{ kind: 'user', values: ['user-2'] }] })) rows.push(row.input_text);
      expect(rows).toEqual(['second', 'fifth']);
    });

    it('list rejects a window whose end is not after its start, and a limit of 0, by path, nothing sent', async () => {
      const error = await target()
        .client()
        .interactions.list({ time_range: { start: day(1), end: day(1) }, limit: 0 })
        .then(undefined, (caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['time_range', 'end'], ['limit']]);
      expect(target().requests.all()).toEqual([]);
    });

    it('export gives every interaction of a range longer than 7 days once, in order, asked in windows of at most 7 days', async () => {
      const client = target().client();
      // On the edges of the windows [0, 7), [7, 14), [14, 16): each belongs to the one that starts with it.
      const times = [day(0), day(7) , new Date(T + 7 * DAY - 1).toISOString(), day(14), day(3), new Date(T + 16 * DAY - 1).toISOString(), day(16)];
      for (const [index, time] of times.entries()) await client.interactions.send(sent(`i-${index}`, time));
      const before = target().requests.all().length;

      const items: ExportedInteraction[] = [];
      for await (const item of client.interactions.export({ from: day(0), to: day(16) })) items.push(item);

      expect(items.map((item) => item.input)).toEqual(['i-0', 'i-4', 'i-2', 'i-1', 'i-3', 'i-5']);
      const asked = target().requests.all().slice(before);
      expect(asked.map((request) => `${request.method} ${request.path}`)).toEqual(Array(3).fill(`GET ${REFERENCE_PATHS.exportInteractions}`));
      expect(items[1]).toMatchObject({ user_id: 'user-1', output: 'An answer.', tags: {}, actions: [], history: [['i-0', 'An answer.']] });
    });

    it('export.windows() gives each window with its place; the query names date_gte and date_lt', async () => {
      await seed();
      const windows = [];
      for await (const window of target().client().interactions.export({ from: day(0), to: day(10) }).windows()) {
        windows.push({ index: window.index, count: window.count, start: window.start, end: window.end, inputs: window.items.map((item) => item.input) });
      }
      expect(windows).toEqual([
        { index: 0, count: 2, start: day(0), end: day(7), inputs: ['first', 'second', 'third', 'fourth', 'fifth'] },
        { index: 1, count: 2, start: day(7), end: day(10), inputs: [] },
      ]);
    });

    it('the server answers an export window over 7 days 422, and one without date_lt 422, by their location in the query', async () => {
      const over = await target().fetch(`${REFERENCE_PATHS.exportInteractions}?date_gte=${day(0)}&date_lt=${new Date(T + 7 * DAY + 1).toISOString()}`, { headers: authorized() });
      expect(over.status).toBe(422);
      expect(await over.json()).toEqual({ detail: [{ loc: ['query', 'date_lt'], msg: 'must be at most 7 days after date_gte', type: 'custom' }] });
      const missing = await target().fetch(`${REFERENCE_PATHS.exportInteractions}?date_gte=${day(0)}`, { headers: authorized() });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toEqual({ detail: [{ loc: ['query', 'date_lt'], msg: 'is required', type: 'missing' }] });
      const exactly = await target().fetch(`${REFERENCE_PATHS.exportInteractions}?date_gte=${day(0)}&date_lt=${day(7)}`, { headers: authorized() });
      expect(exactly.status).toBe(200);
    });

    it('export retries a window that failed like every call, and gives each item once', async () => {
      await seed();
      target().faults.add({ path: REFERENCE_PATHS.exportInteractions, status: 503, times: 1 });
      const client = target().client(undefined, { maxRetries: 2 });
      const items = [];
      for await (const item of client.interactions.export({ from: day(0), to: day(10) })) items.push(item.input);
      expect(items).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
    });

    it('export stops with an AbortError when its signal aborts between windows', async () => {
      await seed();
      const controller = new AbortController();
      const seen: string[] = [];
      const exported = target().client().interactions.export({ from: day(0), to: day(30), signal: controller.signal });
      const error = await (async () => {
        for await (const item of exported) {
          seen.push(item.input);
          controller.abort();
        }
      })().catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(AbortError);
      expect(seen).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
      expect(target().requests.all()).toHaveLength(5 + 1);
    });

    it('export rejects a range whose end is before its start, by path, nothing sent', async () => {
      const exported = target().client().interactions.export({ from: day(3), to: day(1) });
      const error = await exported[Symbol.asyncIterator]().next().catch((caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['to']]);
      expect(target().requests.all()).toEqual([]);
    });

    it('get gives the detail of a listed interaction, with the interactions around it in its conversation', async () => {
      await seed();
      const client = target().client();
      const { data } = await client.interactions.list({ time_range: { start: day(2), end: day(3) } });
      const detail = await client.interactions.get(data[0]!.id);

      expect(detail).toMatchObject({ interaction_id: data[0]!.id, input: 'third', user_id: 'user-1', history: [['first', 'An answer.']] });
      expect(detail.conversation.map((turn) => [turn.input, turn.is_chosen])).toEqual([
        ['first', false],
        ['third', true],
        ['fourth', false],
      ]);
      expect(target().requests.last()?.path).toBe(REFERENCE_PATHS.interactionDetail.replace('{interaction_id}', data[0]!.id));
    });

    it('get of an unknown id is a NotFoundError; of another project, too', async () => {
      await seed();
      await expect(target().client().interactions.get('no-such-id')).rejects.toBeInstanceOf(NotFoundError);
      const [stored] = target().store.listInteractions(PROJECT_A);
      await expect(target().client(KEY_B).interactions.get(stored!.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('an id with a slash stays in its path segment', async () => {
      await expect(target().client().interactions.get('../../eligible-users')).rejects.toBeInstanceOf(NotFoundError);
      expect(target().requests.last()?.path).toBe('/api/external/export/interactions/detail/..%2F..%2Feligible-users');
    });

    it('get rejects an empty id by path, nothing sent', async () => {
      const error = await target().client().interactions.get('').catch((caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['interaction_id']]);
      expect(target().requests.all()).toEqual([]);
    });
  });

  describe('tags after the fact, and deleting platform users', () => {
    const target = useTarget(factory);

    it('addTags merges tags into the interaction of that end user and time_start; list, export and detail show them', async () => {
      const client = target().client();
      const params = interactionParams({ input: 'Hi', output: 'Hello', tags: { channel: 'web', csat: '1' }, minute: 3 });
      await client.interactions.send(params);
      await client.interactions.send(interactionParams({ input: 'Other', minute: 4 }));

      const answer = await client.interactions.addTags({ tags: { csat: '5', ticket: 'resolved' }, metadata: { end_user: 'user-1', time_start: at(3), input: 'Hi', output: 'Hello' } });
      expect(answer.status).toBe(202);
      expect(target().store.listInteractions(PROJECT_A).map((interaction) => interaction.tags)).toEqual([
        { channel: 'web', csat: '5', ticket: 'resolved' },
        {},
      ]);
      const [item] = await (async () => {
        const found = [];
        for await (const exported of client.interactions.export({ from: at(0), to: at(4) })) found.push(exported);
        return found;
      })();
      expect(item?.tags).toEqual({ channel: 'web', csat: '5', ticket: 'resolved' });
      expect((await client.interactions.get(item!.interaction_id)).tags).toEqual(item?.tags);
    });

    it('addTags for no stored interaction is a 422, and nothing changes', async () => {
      const client = target().client();
      await client.interactions.send(interactionParams({ input: 'Hi', minute: 3 }));
      await expect(client.interactions.addTags({ tags: { a: 'b' }, metadata: { end_user: 'user-1', time_start: at(9) } })).rejects.toBeInstanceOf(UnprocessableEntityError);
      expect(target().store.listInteractions(PROJECT_A)[0]?.tags).toEqual({});
    });

    it('addTags rejects a tag that is no string and a time_start that is no timestamp, by path, nothing sent', async () => {
      const error = await target()
        .client()
        .interactions.addTags({ tags: { csat: 5 as never }, metadata: { end_user: 'u', time_start: 'yesterday' } })
        .catch((caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['tags', 'csat'], ['metadata', 'time_start']]);
      expect(target().requests.all()).toEqual([]);
    });

    it('platformUsers.delete removes the listed users from the one list, ignoring unknown ones', async () => {
      const client = target().client();
      await client.platformUsers.insert({ users: ['u-1', 'u-2', 'u-3'].map((end_user) => ({ end_user, tags: {}, active_from: '2026-01-01' })) });

      await expect(client.platformUsers.delete({ users: ['u-1', 'ghost'] })).resolves.toEqual({ message: '1 user deleted; 1 not found, ignored' });
      expect(target().requests.last()).toMatchObject({ method: 'DELETE', path: REFERENCE_PATHS.platformUsers });
      expect((await client.eligibleUsers.list()).users.map((user) => user.end_user)).toEqual(['u-2', 'u-3']);
      const error = await client.platformUsers.delete({ users: [''] }).catch((caught: unknown) => caught);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['users', 0]]);
    });
  });
}
