import { describe, expect, it } from 'vitest';
import { DeliveryError, RecordingError } from '../../src/recorder/errors.js';
import { memoryStore } from '../../src/recorder/store/memory-store.js';
import type { ConversationStore } from '../../src/types/store.js';
import { kinds, setup } from './setup.js';

/** What `redisStore` rejects with when Redis no longer has its data. */
function lostError(): Error & { code: string } {
  return Object.assign(new Error('Redis lost the store data of bucket {7} (restarted without persistence): conversation chat-1'), { code: 'store_lost' });
}

/** A memory store marked shared, whose `failing` method rejects as a store that lost its data. */
function losingStore(failing: 'append' | 'claim'): ConversationStore {
  const store = memoryStore();
  return new Proxy(store, {
    get: (target, name) => {
      if (name === 'shared') return true;
      if (name === failing) return () => Promise.reject(lostError());
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe("a store that rejects with code 'store_lost'", () => {
  it('is reported as a RecordingError store_lost naming the conversation, beside the payload of the turn it did not take', async () => {
    const { errors, recorder } = setup({ store: losingStore('append') });
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: 'chat-1' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'failed' });

    expect(kinds(errors)).toEqual(['store_lost', 'DeliveryError']);
    const [lost, undelivered] = errors as [RecordingError, DeliveryError];
    expect(lost).toMatchObject({ code: 'store_lost', conversationId: 'chat-1' });
    expect(lost.message).toContain('conversation chat-1');
    expect((lost.cause as { code?: string }).code).toBe('store_lost');
    expect(JSON.parse(undelivered.payload)).toMatchObject({ conversation: { end_user: 'u', interactions: [{ input: 'q', output: 'a' }] } });
    await expect(recorder.shutdown()).resolves.toEqual({ delivered: 0, failed: 0, dropped: 0 });
  });

  it('is reported when the conversation is claimed at its end, and the conversation counts as failed', async () => {
    const { errors, recorder, transport } = setup({ store: losingStore('claim') });
    const conversation = recorder.startConversation({ end_user: 'u', conversation_id: 'chat-1' });
    conversation.interaction({ input: 'q' }).end({ output: 'a' });
    await expect(conversation.end()).resolves.toMatchObject({ status: 'failed' });
    await expect(recorder.flush()).resolves.toEqual({ delivered: 0, failed: 1, dropped: 0 });

    expect(kinds(errors)).toEqual(['store_lost']);
    expect(errors[0]).toBeInstanceOf(RecordingError);
    expect((errors[0] as RecordingError).conversationId).toBe('chat-1');
    expect(transport.requests).toHaveLength(0);
  });
});
