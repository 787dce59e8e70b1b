import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/recorder/conversation.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { FakeTransport } from './fake-transport.js';
import { kinds, oneTurn, settle, setup, until, useFakeClock } from './setup.js';

useFakeClock();

describe('flush() or shutdown() called from onError', () => {
  // What is reported about a conversation is reported once the recorder is sending it,
  // so a handler that flushes or shuts down waits for it.
  const cases: [string, (conversation: Conversation) => void][] = [
    ['interaction_open', (conversation) => void conversation.interaction({ input: 'never ended' })],
    [
      'ValidationError',
      (conversation) =>
        void conversation.interaction({ input: 'q' }).llm({ model: '', messages: [], output: 'x' }).end({ output: 'a' }),
    ],
    ['conversation_cropped', (conversation) => void conversation.interaction({ input: 'x'.repeat(5_000) }).end({ output: 'a' })],
  ];

  for (const method of ['flush', 'shutdown'] as const) {
    it.each(cases)(`${method}() from the handler of %s waits for that conversation`, async (kind, record) => {
      const transport = new FakeTransport();
      transport.fallback = 'hold';
      const reported: string[] = [];
      let waiting: Promise<unknown> | undefined;
      const recorder: Recorder = new Recorder({
        http: transport,
        onError: (error) => {
          reported.push(kinds([error])[0] ?? '');
          waiting ??= recorder[method]();
        },
        options: { maxConversationBytes: 1_000 },
      });
      const conversation = recorder.startConversation({ end_user: 'u' });
      record(conversation);
      const outcome = conversation.end();
      await until(() => reported.length > 0);
      expect(reported).toEqual([kind]);
      let done = false;
      void waiting?.then(() => {
        done = true;
      });
      await until(() => transport.requests.length > 0);
      expect(transport.requests).toHaveLength(1);
      expect(done).toBe(false);
      transport.releaseAll();
      await waiting;
      await expect(outcome).resolves.toMatchObject({ status: 'delivered' });
    });
  }

  it('reports in the order things happened, the queue bound last', async () => {
    const { transport, errors, recorder } = setup({ maxConversationBytes: 1_000, maxQueuedConversations: 1, maxConcurrentSends: 1 });
    transport.fallback = 'hold';
    void oneTurn(recorder, 'in flight');
    await settle();
    void oneTurn(recorder, 'queued');
    const conversation = recorder.startConversation({ end_user: 'u' });
    const turn = conversation.interaction({ input: 'x'.repeat(5_000) });
    turn.llm({ model: '', messages: [], output: 'x' });
    const outcome = conversation.end();
    expect(kinds(errors)).toEqual(['interaction_open']);
    await until(() => errors.length >= 3);
    expect(kinds(errors)).toEqual(['interaction_open', 'ValidationError', 'conversation_cropped']);
    await vi.advanceTimersByTimeAsync(0);
    await expect(outcome).resolves.toMatchObject({ status: 'dropped' });
    expect(kinds(errors)).toEqual(['interaction_open', 'ValidationError', 'conversation_cropped', 'QueueFullError']);
    transport.releaseAll();
    await settle();
    transport.releaseAll();
  });
});
