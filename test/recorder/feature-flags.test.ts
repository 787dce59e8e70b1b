import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidationError } from '../../src/core/errors.js';
import { NebulyClient } from '../../src/index.js';
import { createHandlers } from '../../src/reference-server/msw.js';
import { kinds, setup } from './setup.js';

type Sent = { conversation: { interactions: Record<string, unknown>[] } };

describe('feature flags recorded with an interaction', () => {
  it('conversation.interaction({ feature_flag }) sends it as the interaction’s feature_flag, after its tags, as it was at the call', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u', tags: { app: 'web' } });
    const flags = ['new-prompt'];
    conversation.interaction({ input: 'q', feature_flag: flags }).end({ output: 'a' });
    flags.push('added-later');
    conversation.interaction({ input: 'no flag' }).end({ output: 'b' });
    await conversation.end();

    expect(errors).toEqual([]);
    const [flagged, plain] = (transport.bodies[0] as Sent).conversation.interactions;
    expect(flagged?.feature_flag).toEqual(['new-prompt']);
    expect(Object.keys(flagged ?? {})).toEqual(['input', 'output', 'time_start', 'time_end', 'tags', 'feature_flag', 'feedback_actions', 'trace']);
    expect(plain).not.toHaveProperty('feature_flag');
  });

  it('feature flags that are no list of names are reported by path and left out; the interaction is sent', async () => {
    const { transport, errors, recorder } = setup();
    const conversation = recorder.startConversation({ end_user: 'u' });
    conversation.interaction({ input: 'q', feature_flag: 'new-prompt' as unknown as string[] }).end({ output: 'a' });
    conversation.interaction({ input: 'r', feature_flag: ['ok', ''] }).end({ output: 'b' });
    await conversation.end();

    expect(kinds(errors)).toEqual(['ValidationError', 'ValidationError']);
    expect(errors.map((error) => (error as ValidationError).issues.map((issue) => issue.pathText))).toEqual([['feature_flag'], ['feature_flag[1]']]);
    const sent = (transport.bodies[0] as Sent).conversation.interactions;
    expect(sent.map((interaction) => [interaction.input, interaction.feature_flag])).toEqual([
      ['q', undefined],
      ['r', undefined],
    ]);
  });

  describe('through the client, to the reference server', () => {
    const reference = createHandlers({ apiKeys: { 'flags-key': 'flags-project' } });
    const server = setupServer(...reference.handlers);
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it('the flags are stored with the interaction', async () => {
      const nebuly = new NebulyClient({ apiKey: 'flags-key', fetch: (input, init) => globalThis.fetch(input, init) });
      const conversation = nebuly.conversation({ conversation_id: 'c-flags', end_user: 'u' });
      conversation.interaction({ input: 'q', feature_flag: ['new-prompt', 'cheap-model'] }).end({ output: 'a' });
      await conversation.end();
      await nebuly.shutdown();

      expect(reference.store.listInteractions('flags-project').map((interaction) => interaction.feature_flag)).toEqual([['new-prompt', 'cheap-model']]);
    });
  });
});
