import { describe, expect, it } from 'vitest';
import { DeliveryError, QueueFullError } from '../../src/recorder/errors.js';
import type { ConversationStore } from '../../src/types/store.js';
import { setup } from './setup.js';
import { sharedStore } from './shared-store.js';

/** A shared store that stops answering appends, as Redis does when it is down and the client queues commands. */
function storeThatHangs(): ConversationStore {
  const store = sharedStore();
  return new Proxy(store, {
    get: (target, name) => (name === 'append' ? () => new Promise(() => undefined) : Reflect.get(target, name, target)),
  });
}

describe('store writes and maxQueuedBytes (a shared store that stops answering)', () => {
  it('counts the writes not yet done: what does not fit is refused at once, with its payload and key; the rest is reported at the deadline', async () => {
    const { errors, recorder } = setup({ store: storeThatHangs(), maxQueuedBytes: 50_000 });
    const ids: string[] = [];
    for (let index = 0; index < 100; index += 1) {
      const conversation = recorder.conversation({ conversation_id: `chat-${index}`, end_user: 'u' });
      const turn = conversation.interaction({ input: 'x'.repeat(1_000) });
      turn.end({ output: 'y' });
      ids.push(turn.id);
    }
    // Before any deadline (no shutdown yet): the writes past the bound are refused, once
    // the background work has run (polled: a loaded machine runs it later), a report for
    // each turn of the event loop that refused some (the 100 ended turns waited for the
    // stages to load, and are handed over in slices).
    const refusedCount = () => errors.filter((error) => error instanceof QueueFullError).flatMap((error) => (error as QueueFullError).conversations).length;
    await expect.poll(refusedCount).toBeGreaterThan(60);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refusals = errors.filter((error) => error instanceof QueueFullError) as QueueFullError[];
    const refused = refusals.flatMap((error) => error.conversations);
    for (const refusal of refusals) expect(refusal.limit).toBe('maxQueuedBytes');
    // Each interaction holds ~2 kB of strings: about 20 fit in 50,000 bytes, the rest do not.
    expect(refused.length).toBeGreaterThan(60);
    expect(refused.length).toBeLessThan(90);
    for (const { conversationId, payload, idempotencyKey } of refused) {
      const body = JSON.parse(payload) as { conversation: { end_user: string; interactions: { input: string }[] } };
      expect(body.conversation.interactions.map((interaction) => interaction.input)).toEqual(['x'.repeat(1_000)]);
      // Its own id as key: a replay is stored once, whoever replays it.
      expect(idempotencyKey).toBe(ids[Number(conversationId.slice(5))]);
    }
    // The writes that fit wait for the store until shutdown's deadline, then go to onError
    // with their payload: every interaction is refused or reported, none twice.
    await recorder.shutdown({ timeoutMs: 100 });
    const undelivered = errors.filter((error) => error instanceof DeliveryError).map((error) => (error as DeliveryError).idempotencyKey);
    expect(undelivered).toHaveLength(100 - refused.length);
    expect(new Set([...undelivered, ...refused.map(({ idempotencyKey }) => idempotencyKey)])).toEqual(new Set(ids));
  });
});
