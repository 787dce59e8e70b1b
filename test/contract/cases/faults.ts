import { describe, expect, it } from 'vitest';
import { InternalServerError, TimeoutError } from '../../../src/index.js';
import { REFERENCE_PATHS } from '../../../src/reference-server/index.js';
import { interactionParams, user } from '../fixtures.js';
import { authorized, KEY_A, PROJECT_A, useTarget, type TargetFactory } from '../target.js';

export function faultCases(factory: TargetFactory): void {
  describe('fault injection', () => {
    const target = useTarget(factory);
    const statuses = () => target().requests.all().map((request) => request.status);

    it('answers the injected status with Retry-After and {"detail": text}, then serves normally', async () => {
      target().faults.add({ status: 503, retryAfter: '1', times: 1 });
      const faulted = await target().fetch(REFERENCE_PATHS.eligibleUsers, { headers: authorized() });
      const normal = await target().fetch(REFERENCE_PATHS.eligibleUsers, { headers: authorized() });

      expect(faulted.status).toBe(503);
      expect(faulted.headers.get('retry-after')).toBe('1');
      expect(await faulted.json()).toEqual({ detail: 'injected fault' });
      expect(normal.status).toBe(200);
    });

    it('503 + Retry-After twice, then success: the client retries and the write lands once', async () => {
      const fault = target().faults.add({ status: 503, retryAfter: '0', times: 2 });
      const answer = await target().client(KEY_A, { maxRetries: 2 }).eligibleUsers.insert({ users: [user('u-1')] });

      expect(answer.users).toHaveLength(1);
      expect(statuses()).toEqual([503, 503, 200]);
      expect(fault.remaining).toBe(0);
      expect(target().faults.pending).toEqual([]);
      expect(target().store.listUsers(PROJECT_A)).toHaveLength(1);
    });

    it('a 503 the client does not retry reaches the caller as InternalServerError', async () => {
      target().faults.add({ status: 503, times: 1 });
      await expect(target().client().eligibleUsers.list()).rejects.toBeInstanceOf(InternalServerError);
    });

    it('a dropped connection is a network error to a raw fetch', async () => {
      target().faults.add({ drop: true });
      await expect(target().fetch(REFERENCE_PATHS.eligibleUsers, { headers: authorized() })).rejects.toThrow(TypeError);
      expect(statuses()).toEqual([0]);
    });

    it('dropped connection, then success: the client retries and the interaction is stored once', async () => {
      target().faults.add({ drop: true, times: 1 });
      const answer = await target().client(KEY_A, { maxRetries: 1 }).interactions.send(interactionParams({ input: 'Hi' }));

      expect(answer.status).toBe(202);
      expect(statuses()).toEqual([0, 202]);
      expect(target().store.listInteractions(PROJECT_A)).toHaveLength(1);
    });

    it('a delay beyond the client’s timeoutMs is a TimeoutError, and the abandoned request is not served', async () => {
      target().faults.add({ delayMs: 2_000 });
      const client = target().client(KEY_A, { timeoutMs: 100 });
      const started = performance.now();

      await expect(client.interactions.send(interactionParams({ input: 'slow' }))).rejects.toBeInstanceOf(TimeoutError);
      expect(performance.now() - started).toBeLessThan(1_500);
      await expect.poll(() => target().requests.count()).toBe(1);
      expect(statuses()).toEqual([0]);
      expect(target().store.listInteractions(PROJECT_A)).toEqual([]);
    });

    it('a delay within the client’s timeoutMs only slows the answer', async () => {
      target().faults.add({ delayMs: 150 });
      await target().client(KEY_A, { timeoutMs: 5_000 }).eligibleUsers.list();

      expect(target().requests.last()?.durationMs).toBeGreaterThanOrEqual(140);
    });

    it('a fault scoped to a path and method spares every other request', async () => {
      target().faults.add({ status: 500, path: REFERENCE_PATHS.eligibleUsers, method: 'put', times: Infinity });
      const client = target().client();

      await client.eligibleUsers.insert({ users: [user('u-1')] });
      await client.platformUsers.update({ users: [user('u-1', { team: 'b' })] });
      await expect(client.eligibleUsers.update({ users: [user('u-1')] })).rejects.toMatchObject({ status: 500 });
      await expect(client.eligibleUsers.update({ users: [user('u-1')] })).rejects.toMatchObject({ status: 500 });
      expect(statuses()).toEqual([200, 200, 500, 500]);
    });

    it('faults.clear() removes every pending fault', async () => {
      target().faults.add({ status: 500, times: Infinity });
      target().faults.clear();
      await expect(target().client().eligibleUsers.list()).resolves.toEqual({ users: [] });
    });
  });

  describe('fault injection from the options, with an injected random', () => {
    // Hits when the draw is below the probability: the 2nd and 4th requests.
    const draws = [0.9, 0.1, 0.7, 0.2];
    const target = useTarget(factory, {
      faults: [{ status: 429, probability: 0.5, times: Infinity }],
      random: () => draws.shift() ?? 1,
    });

    it('hits the requests whose draw falls under the probability', async () => {
      for (let i = 0; i < 5; i += 1) await target().fetch(REFERENCE_PATHS.eligibleUsers, { headers: authorized() });
      expect(target().requests.all().map((request) => request.status)).toEqual([200, 429, 200, 429, 200]);
    });
  });
}
