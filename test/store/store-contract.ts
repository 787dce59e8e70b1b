import { describe, expect, it } from 'vitest';
import type { ConversationStore, StoredInteraction } from '../../src/types/store.js';

/** A store under test, and how to make a fresh, empty one. */
export interface StoreFactory {
  name: string;
  make(): Promise<ConversationStore>;
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const LEASE = 60_000;

export function stored(id: string, input = `in ${id}`, startMs = T0): StoredInteraction {
  return {
    id,
    interaction: {
      input,
      output: `out ${id}`,
      time_start: new Date(startMs).toISOString(),
      time_end: new Date(startMs + 1_000).toISOString(),
      trace: [],
    },
  };
}

/**
 * The behaviour every `ConversationStore` promises, run against each store: the memory
 * store here, the Redis store against a real redis-server in its own suite.
 */
export function describeStoreContract(factory: StoreFactory): void {
  describe(`${factory.name}: the ConversationStore contract`, () => {
    it('appends interactions, and a claim returns them all with the end user and a generation', async () => {
      const store = await factory.make();
      await store.append('c1', 'user-1', [stored('a')], T0);
      await store.append('c1', 'user-1', [stored('b'), stored('c')], T0 + 10);
      const claim = await store.claim('c1', T0 + 20, LEASE);
      expect(claim?.endUser).toBe('user-1');
      expect(claim?.interactions.map((i) => i.id)).toEqual(['a', 'b', 'c']);
      expect(claim?.interactions[0]?.interaction).toEqual(stored('a').interaction);
      expect(claim?.lastActivityAt).toBe(T0 + 10);
      expect(typeof claim?.generation).toBe('string');
    });

    it('an empty append creates nothing, and a claim of an unknown id is undefined', async () => {
      const store = await factory.make();
      await store.append('c1', 'user-1', [], T0);
      expect(await store.claim('c1', T0, LEASE)).toBeUndefined();
      expect(await store.claimIdle(Number.POSITIVE_INFINITY, T0, LEASE, 10)).toEqual([]);
    });

    it('claims once: a second claim finds nothing, and later appends start the next generation', async () => {
      const store = await factory.make();
      await store.append('c1', 'user-1', [stored('a')], T0);
      const first = await store.claim('c1', T0, LEASE);
      expect(await store.claim('c1', T0, LEASE)).toBeUndefined();
      await store.append('c1', 'user-1', [stored('b')], T0 + 1);
      const second = await store.claim('c1', T0 + 2, LEASE);
      expect(second?.interactions.map((i) => i.id)).toEqual(['b']);
      expect(second?.generation).not.toBe(first?.generation);
    });

    it('claimIdle takes the idlest first, only those idle before the bound, at most `limit`', async () => {
      const store = await factory.make();
      await store.append('old', 'u', [stored('a')], T0);
      await store.append('mid', 'u', [stored('b')], T0 + 100);
      await store.append('new', 'u', [stored('c')], T0 + 200);
      await store.append('old', 'u', [stored('d')], T0 + 300); // active again: now the newest
      const claims = await store.claimIdle(T0 + 250, T0 + 400, LEASE, 10);
      expect(claims.map((c) => c.conversationId)).toEqual(['mid', 'new']);
      const rest = await store.claimIdle(Number.POSITIVE_INFINITY, T0 + 400, LEASE, 1);
      expect(rest.map((c) => c.conversationId)).toEqual(['old']);
    });

    it('a claim whose lease expired is taken again by claimIdle, with the same generation', async () => {
      const store = await factory.make();
      await store.append('c1', 'u', [stored('a')], T0);
      const first = await store.claim('c1', T0, LEASE);
      expect(await store.claimIdle(Number.POSITIVE_INFINITY, T0 + LEASE - 1, LEASE, 10)).toEqual([]);
      const again = await store.claimIdle(Number.NEGATIVE_INFINITY, T0 + LEASE, LEASE, 10);
      expect(again.map((c) => c.generation)).toEqual([first?.generation]);
      expect(again[0]?.token).not.toBe(first?.token);
      // The first sender's late completion changes nothing: the second holds the lease.
      await store.complete(first!, T0 + 1e9);
      expect(await store.sent('c1', 'a', T0 + LEASE)).toBeUndefined();
      await store.complete(again[0]!, T0 + 1e9);
      expect(await store.sent('c1', 'a', T0 + LEASE)).toMatchObject({ endUser: 'u', input: 'in a', output: 'out a' });
    });

    it('release makes a claim claimable again at once', async () => {
      const store = await factory.make();
      await store.append('c1', 'u', [stored('a')], T0);
      const claim = await store.claim('c1', T0, LEASE);
      await store.release(claim!);
      const again = await store.claimIdle(Number.NEGATIVE_INFINITY, T0 + 1, LEASE, 10);
      expect(again.map((c) => c.interactions.map((i) => i.id))).toEqual([['a']]);
    });

    it('complete keeps what feedback needs until retainUntil, and nothing after', async () => {
      const store = await factory.make();
      await store.append('c1', 'u', [stored('a')], T0);
      const claim = await store.claim('c1', T0, LEASE);
      await store.complete(claim!, T0 + 5_000);
      expect(await store.sent('c1', 'a', T0 + 4_999)).toEqual({
        endUser: 'u',
        input: 'in a',
        output: 'out a',
        timeStart: new Date(T0).toISOString(),
        timeEnd: new Date(T0 + 1_000).toISOString(),
      });
      expect(await store.sent('c1', 'a', T0 + 5_000)).toBeUndefined();
      expect(await store.sent('c1', 'zzz', T0)).toBeUndefined();
    });

    it('feedback attaches to a stored interaction of an open conversation only', async () => {
      const store = await factory.make();
      await store.append('c1', 'u', [stored('a'), stored('b')], T0);
      expect(await store.attach('c1', 'b', { kind: 'feedback', action: { slug: 'thumbs_up' } }, T0 + 1)).toBe(true);
      expect(await store.attach('c1', 'b', { kind: 'feedback', action: { slug: 'comment', text: 'ok' } }, T0 + 2)).toBe(true);
      expect(await store.attach('c1', 'nope', { kind: 'feedback', action: { slug: 'thumbs_up' } }, T0 + 3)).toBe(false);
      expect(await store.attach('other', 'b', { kind: 'feedback', action: { slug: 'thumbs_up' } }, T0 + 3)).toBe(false);
      const claim = await store.claim('c1', T0 + 4, LEASE);
      expect(claim?.interactions[1]?.interaction.feedback_actions).toEqual([
        { slug: 'thumbs_up' },
        { slug: 'comment', text: 'ok' },
      ]);
      expect(claim?.lastActivityAt).toBe(T0 + 2);
      expect(await store.attach('c1', 'a', { kind: 'feedback', action: { slug: 'thumbs_up' } }, T0 + 5)).toBe(false);
    });

    it('keep: interactions sent without a claim are answered by sent() until retainUntil', async () => {
      const store = await factory.make();
      await store.keep('c1', 'user-1', [stored('a'), stored('b')], T0, T0 + 5_000);
      expect(await store.sent('c1', 'b', T0 + 1)).toEqual({
        endUser: 'user-1',
        input: 'in b',
        output: 'out b',
        timeStart: new Date(T0).toISOString(),
        timeEnd: new Date(T0 + 1_000).toISOString(),
      });
      expect(await store.sent('other', 'b', T0 + 1)).toBeUndefined();
      expect(await store.sent('c1', 'a', T0 + 5_000)).toBeUndefined();
      // Nothing was opened: there is nothing to claim or attach to.
      expect(await store.claim('c1', T0, LEASE)).toBeUndefined();
      expect(await store.attach('c1', 'a', { kind: 'tags', tags: { csat: '5' } }, T0 + 2)).toBe(false);
    });

    it('tags attach to a stored interaction of an open conversation only, merged over its own, the later value winning', async () => {
      const store = await factory.make();
      const tagged: StoredInteraction = { id: 'a', interaction: { ...stored('a').interaction, tags: { plan: 'pro', csat: '1' } } };
      await store.append('c1', 'u', [tagged, stored('b')], T0);
      expect(await store.attach('c1', 'a', { kind: 'tags', tags: { csat: '4', ticket: 'open' } }, T0 + 1)).toBe(true);
      expect(await store.attach('c1', 'a', { kind: 'feedback', action: { slug: 'thumbs_up' } }, T0 + 2)).toBe(true);
      expect(await store.attach('c1', 'a', { kind: 'tags', tags: { csat: '5', 'a,b': 'x,"y"' } }, T0 + 3)).toBe(true);
      expect(await store.attach('c1', 'b', { kind: 'tags', tags: { ticket: 'closed' } }, T0 + 4)).toBe(true);
      expect(await store.attach('c1', 'nope', { kind: 'tags', tags: { csat: '5' } }, T0 + 5)).toBe(false);
      expect(await store.attach('other', 'a', { kind: 'tags', tags: { csat: '5' } }, T0 + 5)).toBe(false);
      const claim = await store.claim('c1', T0 + 6, LEASE);
      expect(claim?.interactions[0]?.interaction.tags).toEqual({ plan: 'pro', csat: '5', ticket: 'open', 'a,b': 'x,"y"' });
      expect(claim?.interactions[0]?.interaction.feedback_actions).toEqual([{ slug: 'thumbs_up' }]);
      expect(claim?.interactions[1]?.interaction.tags).toEqual({ ticket: 'closed' });
      expect(claim?.lastActivityAt).toBe(T0 + 4);
      expect(await store.attach('c1', 'a', { kind: 'tags', tags: { csat: '5' } }, T0 + 7)).toBe(false);
    });
  });
}
