import { describe, expect, it, vi } from 'vitest';
import type { Mask } from '../../src/core/privacy-options.js';
import type { NebulyError } from '../../src/core/errors.js';
import { QueueFullError } from '../../src/recorder/errors.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { FakeTransport } from './fake-transport.js';
import { kinds, settle, setup, useFakeClock } from './setup.js';

useFakeClock();

/**
 * Turns ended while the outbox is at `maxQueuedBytes` (here: a conversation of 3,000
 * characters held in flight fills most of 14,000 bytes) wait with their conversation,
 * unchecked, and its end decides: stored and sent whole when it fits then, refused whole
 * at once when it does not. With a store in this process's memory (the default), a
 * conversation is never split by the bound.
 */
describe('turns past maxQueuedBytes wait with their conversation', () => {
  const options = { maxQueuedBytes: 14_000, maxConcurrentSends: 1 };

  /** Ends a conversation whose body the held transport keeps in flight, filling the bound. */
  async function fill(recorder: ReturnType<typeof setup>['recorder']) {
    const filler = recorder.conversation({ conversation_id: 'filler', end_user: 'u' });
    filler.interaction({ input: 'f'.repeat(3_000) }).end({ output: 'f' });
    const outcome = filler.end();
    await settle();
    // Wrapped: an async function returning the outcome would wait for it.
    return { outcome };
  }

  it('are sent with it, whole and in order, when it fits at its end', async () => {
    const { transport, errors, recorder } = setup(options);
    transport.fallback = 'hold';
    const { outcome: filled } = await fill(recorder);
    const chat = recorder.conversation({ conversation_id: 'chat', end_user: 'u' });
    const first = chat.interaction({ input: 'b'.repeat(500) });
    first.end({ output: 'one' });
    // Feedback on a turn that waits goes with it.
    void recorder.feedback({ conversation_id: 'chat', interaction_id: first.id, slug: 'thumbs_up' });
    await settle();
    expect(transport.requests.map((request) => JSON.parse(request.body).conversation.interactions[0].input[0])).toEqual(['f']);
    // The filler is delivered: room again.
    transport.fallback = 'accept';
    transport.releaseAll();
    await expect(filled).resolves.toMatchObject({ status: 'delivered' });
    vi.advanceTimersByTime(1);
    chat.interaction({ input: 'second' }).end({ output: 'two' });
    await expect(chat.end()).resolves.toMatchObject({ status: 'delivered' });
    const sent = transport.bodies.at(-1) as { conversation: { interactions: { input: string; output: string; feedback_actions?: { slug: string }[] }[] } };
    expect(sent.conversation.interactions.map(({ output }) => output)).toEqual(['one', 'two']);
    expect(sent.conversation.interactions[0]?.feedback_actions?.map(({ slug }) => slug)).toEqual(['thumbs_up']);
    expect(errors).toEqual([]);
  });

  it('are refused with it, whole, at once, when it does not fit at its end: every turn in one payload, under one key', async () => {
    const { transport, errors, recorder } = setup(options);
    transport.fallback = 'hold';
    const chat = recorder.conversation({ conversation_id: 'chat', end_user: 'u' });
    // Stored while there is room.
    chat.interaction({ input: 'b'.repeat(500) }).end({ output: 'one' });
    await settle();
    const { outcome: filled } = await fill(recorder);
    // Past the bound: waits with the conversation.
    chat.interaction({ input: 'c'.repeat(500) }).end({ output: 'two' });
    const outcome = chat.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const refused = errors[0] as QueueFullError;
    expect(refused.limit).toBe('maxQueuedBytes');
    expect(refused.conversations).toHaveLength(1);
    const [conversation] = refused.conversations;
    expect(conversation?.conversationId).toBe('chat');
    expect(conversation?.idempotencyKey).toEqual(expect.any(String));
    const body = JSON.parse(conversation?.payload ?? '{}') as { conversation: { end_user: string; interactions: { output: string }[] } };
    expect(body.conversation.end_user).toBe('u');
    expect(body.conversation.interactions.map(({ output }) => output)).toEqual(['one', 'two']);
    await expect(outcome).resolves.toEqual({ status: 'dropped', conversationId: 'chat', error: refused });
    // Nothing of it is sent later, and the report counts it once.
    transport.fallback = 'accept';
    transport.releaseAll();
    await expect(filled).resolves.toMatchObject({ status: 'delivered' });
    const report = await recorder.flush();
    expect(report).toMatchObject({ delivered: 1, dropped: 1, failed: 0 });
    expect(transport.requests).toHaveLength(1);
  });

  it.each(['conversation', 'interaction'] as const)(
    'a turn larger than maxQueuedBytes counts as what it is sent as: cropped to maxConversationBytes and sent, not refused (delivery: %s)',
    async (delivery) => {
      const { transport, errors, recorder } = setup({ maxQueuedBytes: 14_000, maxConversationBytes: 2_000, delivery });
      const chat = recorder.conversation({ conversation_id: 'chat', end_user: 'u' });
      chat.interaction({ input: 'small' }).end({ output: 'one' });
      // 40,000 characters: 80 kB as it is held, 2,000 bytes as it is sent.
      chat.interaction({ input: 'h'.repeat(40_000) }).end({ output: 'two' });
      void chat.end();
      for (let i = 0; i < 20; i += 1) await vi.advanceTimersByTimeAsync(100);
      const report = await recorder.flush();
      expect(report).toMatchObject({ failed: 0, dropped: 0 });
      expect(kinds(errors)).toEqual(['conversation_cropped']);
      const sent = transport.requests.map((request) => request.body).join('\n');
      expect(sent).toContain('cropped');
      expect(sent).toContain('"two"');
      expect(sent).toContain('"one"');
      expect(transport.requests.every((request) => Buffer.byteLength(request.body) <= 2_000)).toBe(true);
    },
  );

  it("with delivery: 'interaction', are refused on their own, under their own id as key, at once", async () => {
    const { transport, errors, recorder } = setup({ ...options, delivery: 'interaction' });
    transport.fallback = 'hold';
    const chat = recorder.conversation({ conversation_id: 'chat', end_user: 'u' });
    chat.interaction({ input: 'f'.repeat(3_000) }).end({ output: 'f' });
    await settle();
    const late = chat.interaction({ input: 'b'.repeat(3_000) });
    late.end({ output: 'two' });
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const [refused] = (errors[0] as QueueFullError).conversations;
    expect(refused?.idempotencyKey).toBe(late.id);
    expect((JSON.parse(refused?.payload ?? '{}') as { conversation: { interactions: { output: string }[] } }).conversation.interactions.map(({ output }) => output)).toEqual(['two']);
    transport.fallback = 'accept';
    transport.releaseAll();
    await recorder.flush();
    expect(transport.requests).toHaveLength(1);
  });

  it("go through the client's mask before anything carries them: a refusal's payload is masked, the waiting turn too", async () => {
    // Loaded ahead (it brings zod): the recorder loads it with the first masked interaction.
    await import('../../src/privacy/apply-mask.js');
    const transport = new FakeTransport();
    const errors: NebulyError[] = [];
    // Replaces every input, as a mask of personal data would.
    const mask: Mask = (payload) => {
      const body = structuredClone(payload) as { conversation?: { interactions: { input: string }[] } };
      for (const interaction of body.conversation?.interactions ?? []) interaction.input = 'MASKED';
      return body as ReturnType<Mask>;
    };
    const recorder = new Recorder({ http: transport, onError: (error) => errors.push(error), options, mask });
    transport.fallback = 'hold';
    const chat = recorder.conversation({ conversation_id: 'chat', end_user: 'u' });
    chat.interaction({ input: 'secret one '.repeat(50) }).end({ output: 'one' });
    await settle();
    // The filler's output fills the bound (the mask shortens inputs only).
    const filler = recorder.conversation({ conversation_id: 'filler', end_user: 'u' });
    filler.interaction({ input: 'f' }).end({ output: 'f'.repeat(3_000) });
    const filled = filler.end();
    for (let i = 0; i < 50 && transport.requests.length === 0; i += 1) await settle();
    chat.interaction({ input: 'secret two '.repeat(50) }).end({ output: 'two' });
    void chat.end();
    await settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(kinds(errors)).toEqual(['QueueFullError']);
    const payload = (errors[0] as QueueFullError).conversations[0]?.payload ?? '';
    expect(payload).not.toContain('secret');
    expect((JSON.parse(payload) as { conversation: { interactions: { input: string }[] } }).conversation.interactions.map(({ input }) => input)).toEqual(['MASKED', 'MASKED']);
    transport.fallback = 'accept';
    transport.releaseAll();
    await filled;
  });
});
