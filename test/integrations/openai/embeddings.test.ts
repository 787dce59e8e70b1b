import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { nebulyWithReference } from '../nebuly.js';
import { openai, provider, useFakeProvider } from './provider.js';

useFakeProvider();

describe('embeddings.create', () => {
  const vectors = [
    [0.5, -0.25, 1],
    [0.125, 2, -1],
  ];
  const base64 = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString('base64');

  it('the caller still gets decoded vectors (base64 on the wire); one step with every input', async () => {
    provider.answer((request) => {
      const asBase64 = (request.body as { encoding_format?: string }).encoding_format === 'base64';
      return {
        json: {
          object: 'list',
          model: 'text-embedding-3-small',
          data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: asBase64 ? base64(vector) : vector })),
          usage: { prompt_tokens: 8, total_tokens: 8 },
        },
      };
    });
    const { nebuly, sent } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: 'Find order 7' });
    const observed = observeOpenAI(openai(), { turn });
    const result = await observed.embeddings.create({ model: 'text-embedding-3-small', input: ['order 7', 'shipping'] });
    expect(provider.requests[0]?.body).toMatchObject({ encoding_format: 'base64' });
    expect(result.data.map((item) => item.embedding)).toEqual(vectors);
    turn.end({ output: 'Found.' });
    await conversation.end();
    expect(sent()[0]?.interactions[0]?.trace).toEqual([{ model: 'text-embedding-3-small', input: 'order 7\nshipping', input_tokens: 8 }]);
  });
  it('a failed embedding call records no step; its turn says why', async () => {
    provider.answer(() => ({ status: 400, json: { error: { message: 'input too long', type: 'invalid_request_error' } } }));
    const { nebuly, sent } = nebulyWithReference();
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await expect(observed.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 400 });
    await nebuly.flush();
    expect(sent()[0]?.interactions[0]).toMatchObject({ input: 'x', output: '[nebuly: call failed (400 BadRequestError)]', trace: [] });
  });
});
