import { describe, expect, it } from 'vitest';
import { REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { conversationParams } from '../fixtures.js';
import { authorized, KEY_A, KEY_B, PROJECT_A, PROJECT_B, useTarget, type TargetFactory } from '../target.js';

const byKey = (key: string) => ({ headers: { 'idempotency-key': key } });

export function idempotencyCases(factory: TargetFactory): void {
  describe('Idempotency-Key', () => {
    const target = useTarget(factory);
    const stored = () => target().store.listInteractions(PROJECT_A);

    it('stores a body once per key and answers a repeat with the first answer', async () => {
      const client = target().client();
      const first = await client.conversations.send(conversationParams(), byKey('key-1'));
      const repeat = await target().fetch(REFERENCE_PATHS.conversation, {
        method: 'POST',
        headers: { ...authorized(), 'idempotency-key': 'key-1' },
        body: target().requests.last()?.body ?? '',
      });

      expect(first).toEqual({ status: 202, body: { status: 'accepted' } });
      expect(repeat.status).toBe(202);
      expect(await repeat.json()).toEqual({ status: 'accepted' });
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      expect(stored()).toHaveLength(2); // the two interactions of one conversation, once
      expect(stored().map((interaction) => interaction.idempotency_key)).toEqual(['key-1', 'key-1']);
    });

    it('another key, or none, stores again', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams(), byKey('key-1'));
      await client.conversations.send(conversationParams(), byKey('key-2'));
      const raw = () =>
        target().fetch(REFERENCE_PATHS.conversation, { method: 'POST', headers: authorized(), body: JSON.stringify(conversationParams()) });
      expect((await raw()).status).toBe(202);
      expect((await raw()).status).toBe(202);

      expect(stored()).toHaveLength(8);
      expect(stored().map((interaction) => interaction.idempotency_key)).toEqual(['key-1', 'key-1', 'key-2', 'key-2', null, null, null, null]);
    });

    it('the client’s own key, one per call, makes each call store once', async () => {
      await target().client().conversations.send(conversationParams());
      await target().client().conversations.send(conversationParams());

      const keys = stored().map((interaction) => interaction.idempotency_key);
      expect(keys).toHaveLength(4);
      expect(new Set(keys).size).toBe(2);
      expect(keys.every((key) => typeof key === 'string' && key !== '')).toBe(true);
    });

    it('the same key with a different body is a 422 and stores nothing more', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams('user-1'), byKey('key-1'));
      await expect(client.conversations.send(conversationParams('user-2'), byKey('key-1'))).rejects.toMatchObject({
        status: 422,
        body: { detail: 'Idempotency-Key was already used with a different body' },
      });
      expect(stored().map((interaction) => interaction.end_user)).toEqual(['user-1', 'user-1']);
    });

    it('keys are per project: the same key in another project stores there', async () => {
      await target().client(KEY_A).conversations.send(conversationParams(), byKey('shared'));
      await target().client(KEY_B).conversations.send(conversationParams(), byKey('shared'));

      expect(stored()).toHaveLength(2);
      expect(target().store.listInteractions(PROJECT_B)).toHaveLength(2);
    });

    it('a refused body is not remembered: fixed under the same key, it is stored', async () => {
      const body = JSON.stringify({ conversation: { end_user: '', interactions: [] } });
      const init = (text: string) => ({ method: 'POST', headers: { ...authorized(), 'idempotency-key': 'k' }, body: text });
      expect((await target().fetch(REFERENCE_PATHS.conversation, init(body))).status).toBe(422);
      expect((await target().fetch(REFERENCE_PATHS.conversation, init(body))).status).toBe(422);
    });
  });

  describe('Idempotency-Key: 24 hours by the reference clock', () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const target = useTarget(factory, { now: () => new Date(now) });

    it('a repeat within 24 hours is answered from memory; after them, stored again', async () => {
      const client = target().client();
      await client.conversations.send(conversationParams(), byKey('key-1'));
      now += 24 * 3_600_000 - 1;
      await client.conversations.send(conversationParams(), byKey('key-1'));
      expect(target().store.listInteractions(PROJECT_A)).toHaveLength(2);
      now += 1;
      await client.conversations.send(conversationParams(), byKey('key-1'));
      expect(target().store.listInteractions(PROJECT_A)).toHaveLength(4);
    });
  });

  describe('store-first faults', () => {
    const target = useTarget(factory);
    const stored = () => target().store.listInteractions(PROJECT_A);
    const statuses = () => target().requests.all().map((request) => request.status);

    it('stored, then 504: a retry without a key stores a duplicate', async () => {
      target().faults.add({ storeFirst: true, status: 504 });
      const send = () =>
        target().fetch(REFERENCE_PATHS.conversation, { method: 'POST', headers: authorized(), body: JSON.stringify(conversationParams()) });
      expect((await send()).status).toBe(504);
      expect((await send()).status).toBe(202);

      expect(stored()).toHaveLength(4);
    });

    it('stored, then 504: the client’s retry carries the same key of its own, and is stored once', async () => {
      target().faults.add({ storeFirst: true, status: 504 });
      await target().client(KEY_A, { maxRetries: 1 }).conversations.send(conversationParams());

      expect(statuses()).toEqual([504, 202]);
      expect(stored()).toHaveLength(2);
    });

    it('stored, then 504: a retry with the same key is answered the first answer, stored once', async () => {
      target().faults.add({ storeFirst: true, status: 504 });
      await target().client(KEY_A, { maxRetries: 1 }).conversations.send(conversationParams(), byKey('key-1'));

      expect(statuses()).toEqual([504, 202]);
      expect(stored()).toHaveLength(2);
    });

    it('stored, then the connection reset: the client sees a network error, the data landed', async () => {
      target().faults.add({ storeFirst: true, drop: true });
      await expect(target().client().conversations.send(conversationParams(), byKey('k'))).rejects.toMatchObject({
        name: 'ConnectionError',
      });
      expect(statuses()).toEqual([0]);
      expect(stored()).toHaveLength(2);
    });

    it('stored, then answered after the client’s time-out: a TimeoutError, the data landed', async () => {
      target().faults.add({ storeFirst: true, delayMs: 2_000 });
      const client = target().client(KEY_A, { timeoutMs: 100 });
      await expect(client.conversations.send(conversationParams(), byKey('k'))).rejects.toMatchObject({ name: 'TimeoutError' });
      await expect.poll(() => target().requests.count()).toBe(1);
      expect(stored()).toHaveLength(2);
    });

    it('stored, then 500, for a request that is refused anyway: the fault still answers', async () => {
      target().faults.add({ storeFirst: true, status: 500 });
      const answer = await target().fetch(REFERENCE_PATHS.conversation, { method: 'POST', headers: authorized(), body: '{}' });
      expect(answer.status).toBe(500);
      expect(stored()).toEqual([]);
    });
  });
}
