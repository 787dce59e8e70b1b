import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MASK_FAILED, MaskError, maskPII, NebulyClient, type NebulyError, type SendConversationParams, type SendInteractionParams } from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';

const PROJECT = 'project-privacy';
let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { 'privacy-key': PROJECT } });
});
afterEach(() => {
  server.store.clear();
  server.requests.clear();
});
afterAll(async () => {
  await server.close();
});

// Personal data of every kind maskPII finds, in one sentence.
const PERSONAL =
  'I am ana@example.com, +44 20 7946 0958, card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, key sk-proj-4fQx9ZpL2mN8vR1tY6wK';
const FOUND = /ana@|7946|4111|DE89|sk-proj/;

function client(options: Partial<ConstructorParameters<typeof NebulyClient>[0]> = {}) {
  const errors: NebulyError[] = [];
  const nebuly = new NebulyClient({ apiKey: 'privacy-key', baseUrl: server.url, maxRetries: 0, onError: (error) => errors.push(error), ...options });
  return { nebuly, errors };
}

const time = { time_start: '2026-03-01T10:00:00.000Z', time_end: '2026-03-01T10:00:02.000Z' };

const interaction: SendInteractionParams = {
  interaction: { conversation_id: 'c-1', input: PERSONAL, output: PERSONAL, end_user: 'hash-1', tags: { who: PERSONAL }, ...time },
  traces: [
    { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: PERSONAL }] }], output: PERSONAL },
    { source: 'crm', input: PERSONAL, outputs: [PERSONAL] },
    { model: 'embed', input: PERSONAL },
  ],
  user_feedback: [{ slug: 'comment', text: PERSONAL }],
};

const conversation: SendConversationParams = {
  conversation: {
    end_user: 'hash-1',
    interactions: [
      {
        input: PERSONAL,
        output: PERSONAL,
        tags: { who: PERSONAL },
        feedback_actions: [{ slug: 'comment', text: PERSONAL }],
        trace: interaction.traces,
        ...time,
      },
    ],
  },
};

/** Every body the server received, as text. */
const received = () => server.requests.all().map((request) => request.body);

describe('a client with a mask, on the wire', () => {
  it('sends interactions.send and conversations.send masked: the server never sees the personal data', async () => {
    const { nebuly, errors } = client({ mask: maskPII });
    await nebuly.interactions.send(interaction);
    await nebuly.conversations.send(conversation);

    const bodies = received();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).not.toMatch(FOUND);
      expect(body).toContain('[EMAIL], [PHONE], card [CARD], IBAN [IBAN], key [SECRET]');
    }
    const stored = server.store.listInteractions(PROJECT);
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toMatch(FOUND);
    expect(errors).toEqual([]);
  });

  it('gives the mask a copy: a mask that changes its body in place leaves your params as they were', async () => {
    const params = structuredClone(conversation);
    const { nebuly } = client({
      mask: (payload) => {
        const body = payload as { conversation: { interactions: { input: string }[] } };
        body.conversation.interactions[0]!.input = 'changed';
        return payload;
      },
    });
    await nebuly.conversations.send(params);
    expect(JSON.parse(received()[0]!).conversation.interactions[0].input).toBe('changed');
    expect(params).toEqual(conversation);
  });

  it('sends the bodies unchanged without a mask', async () => {
    const { nebuly } = client();
    await nebuly.conversations.send(conversation);
    expect(received()[0]).toContain(PERSONAL);
  });

  it('leaves bodies of other endpoints alone', async () => {
    let calls = 0;
    const { nebuly } = client({ mask: (payload) => ((calls += 1), payload) });
    await nebuly.eligibleUsers.insert({ users: [{ end_user: "ana@example.com", tags: {}, active_from: "2026-01-01" }] });
    expect(calls).toBe(0);
    expect(received()[0]).toContain('ana@example.com');
  });

  it('fails closed when the mask throws: the content goes out as a placeholder, and onError hears of it', async () => {
    const { nebuly, errors } = client({
      mask: () => {
        throw new Error(`no: ${PERSONAL}`);
      },
    });
    const answer = await nebuly.conversations.send(conversation);
    expect(answer.status).toBeGreaterThanOrEqual(200);

    const body = received()[0]!;
    expect(body).not.toMatch(FOUND);
    expect(JSON.parse(body).conversation.interactions[0].input).toBe(MASK_FAILED);
    expect(server.store.listInteractions(PROJECT)[0]!.input).toBe(MASK_FAILED);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MaskError);
    expect(errors[0]).toMatchObject({ code: 'mask_threw', kind: 'conversation', fallback: 'placeholder' });
    expect(String(errors[0]!.message)).not.toMatch(FOUND);
  });

  it('sends nothing, and rejects the call, when the mask broke the body before throwing', async () => {
    const { nebuly, errors } = client({
      mask: (payload) => {
        (payload as { interaction: { end_user: string } }).interaction.end_user = '';
        throw new Error('half way');
      },
    });
    const failure = await nebuly.interactions.send(interaction).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MaskError);
    expect(failure).toMatchObject({ code: 'mask_threw', kind: 'interaction', fallback: 'withheld' });
    expect(server.requests.all()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('sends typed calls whatever the sample: sampleRate is for what the recorder records', async () => {
    const { nebuly } = client({ sampleRate: 0 });
    await nebuly.interactions.send(interaction);
    expect(received()).toHaveLength(1);
  });

  it('still rejects invalid params with a ValidationError before the mask runs', async () => {
    let calls = 0;
    const { nebuly } = client({ mask: (payload) => ((calls += 1), payload) });
    await expect(nebuly.conversations.send({ conversation: { end_user: '', interactions: [] } })).rejects.toThrow('end_user');
    expect(calls).toBe(0);
    expect(server.requests.all()).toEqual([]);
  });
});
