/**
 * True cost (issue 34, item 2): a call that reported cached, cache-write or reasoning
 * tokens is an LLM step with its `cost` in micro-dollars, from the built-in price table
 * or the client's `modelPrices`; its token counts stay what the provider reported. Real
 * OpenAI and Anthropic clients against the fake provider; each expected cost is computed
 * from the usage the provider sent and the published prices.
 */
import Anthropic from '@anthropic-ai/sdk';
import { NebulyClient, type ModelPrice } from 'nebuly-client';
import { observeAnthropic } from 'nebuly-client/anthropic';
import { observeOpenAI } from 'nebuly-client/openai';
import { createReferenceHandler } from 'nebuly-client/reference-server';
import { describe, expect, it } from 'vitest';
import { anthropicEvents, anthropicMessage, openAIChatChunks, openAIChatCompletion, openAIResponse } from '../../examples/support/replies.js';
import type { ServerEvent } from '../../examples/support/fake-llm-server.js';
import { CONVERSATIONS_PATH } from './nebuly.js';
import { openai, provider, useFakeProvider } from './openai/provider.js';

useFakeProvider();

const anthropic = () => new Anthropic({ apiKey: 'sk-ant-fake-key', baseURL: provider.url, maxRetries: 0 });

/** A client on the reference server, with `modelPrices` when given; the steps it sent. */
function nebulyWith(modelPrices?: Record<string, ModelPrice>) {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: unknown[] = [];
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    onError: (error) => errors.push(error),
    ...(modelPrices === undefined ? {} : { modelPrices }),
  });
  const steps = () =>
    reference.requests
      .all({ path: CONVERSATIONS_PATH })
      .flatMap((request) => (JSON.parse(request.body) as { conversation: { interactions: { trace: Record<string, unknown>[] }[] } }).conversation.interactions)
      .flatMap((interaction) => interaction.trace);
  return { nebuly, errors, steps };
}

/** USD per million tokens × tokens, in micro-dollars, as the service rounds. */
const micro = (usd: number) => Math.round(usd * 1_000_000);
const perMillion = (tokens: number, price: number) => (tokens * price) / 1_000_000;

/** A chat completion whose usage says how much came from the cache and how much was reasoning. */
function chatWithUsage(model: string, usage: Record<string, unknown>) {
  const reply = openAIChatCompletion({ model, text: 'Order 7 shipped.' }) as { json: { usage: unknown } };
  reply.json.usage = usage;
  return reply;
}

describe('OpenAI', () => {
  it('chat: cached and reasoning tokens give a cost at the gpt-4o prices of its dated snapshot; tokens as reported', async () => {
    const usage = { prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 }, completion_tokens_details: { reasoning_tokens: 0 } };
    provider.answer(() => chatWithUsage('gpt-4o-2024-08-06', usage));
    const { nebuly, steps, errors } = nebulyWith();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is order 7?' }] });
    await nebuly.shutdown();

    expect(errors).toEqual([]);
    // gpt-4o: $2.50 input, $1.25 cached input, $10 output per million tokens.
    const expected = micro(perMillion(2006 - 1920, 2.5) + perMillion(1920, 1.25) + perMillion(300, 10));
    expect(steps()).toEqual([expect.objectContaining({ model: 'gpt-4o-2024-08-06', input_tokens: 2006, output_tokens: 300, cost: expected })]);
    expect(expected).toBe(5615);
  });

  it('chat, streamed with usage: the usage chunk’s details price it', async () => {
    provider.answer(() => {
      const events = openAIChatChunks({ model: 'o4-mini-2025-04-16', text: 'Shipped.' }, { withUsage: true });
      const usageChunk = events.at(-2) as ServerEvent & { data: { usage: unknown } };
      usageChunk.data.usage = { prompt_tokens: 500, completion_tokens: 700, total_tokens: 1200, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 640 } };
      return { events };
    });
    const { nebuly, steps } = nebulyWith();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    const stream = await client.chat.completions.create({ model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    for await (const chunk of stream) void chunk;
    await nebuly.shutdown();
    // o4-mini: $1.10 input, $4.40 output; the reasoning tokens are output tokens.
    expect(steps()).toEqual([expect.objectContaining({ input_tokens: 500, output_tokens: 700, cost: micro(perMillion(500, 1.1) + perMillion(700, 4.4)) })]);
  });

  it('responses: reasoning tokens give a cost; modelPrices overrides the built-in price', async () => {
    provider.answer(() => {
      const response = openAIResponse({ model: 'gpt-5-2025-08-07', text: 'Shipped.' });
      response['usage'] = {
        input_tokens: 1000,
        input_tokens_details: { cached_tokens: 600 },
        output_tokens: 200,
        output_tokens_details: { reasoning_tokens: 150 },
        total_tokens: 1200,
      };
      return { json: response };
    });
    const { nebuly, steps } = nebulyWith({ 'gpt-5': { input: 2, cachedInput: 0.5, output: 20 } });
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await client.responses.create({ model: 'gpt-5', input: 'Where is order 7?' });
    await nebuly.shutdown();
    expect(steps()).toEqual([
      expect.objectContaining({ input_tokens: 1000, output_tokens: 200, cost: micro(perMillion(400, 2) + perMillion(600, 0.5) + perMillion(200, 20)) }),
    ]);
  });

  it('no cost without cached or reasoning tokens, nor for a model without a price', async () => {
    provider.answer((request) =>
      (request.body as { model: string }).model === 'plain'
        ? openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'A', inputTokens: 10, outputTokens: 2 })
        : chatWithUsage('acme-llm-1', { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102, prompt_tokens_details: { cached_tokens: 64 } }),
    );
    const { nebuly, steps } = nebulyWith();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await client.chat.completions.create({ model: 'plain', messages: [{ role: 'user', content: 'One' }] });
    await client.chat.completions.create({ model: 'acme', messages: [{ role: 'user', content: 'Two' }] });
    await nebuly.shutdown();
    const sent = steps();
    expect(sent).toHaveLength(2);
    for (const step of sent) expect(step).not.toHaveProperty('cost');
    // Two conversations, sent side by side: in no promised order.
    expect(sent.map((step) => [step.input_tokens, step.output_tokens]).sort(([a], [b]) => Number(a) - Number(b))).toEqual([
      [10, 2],
      [100, 2],
    ]);
  });

  it('a model of modelPrices only, matched by its dated name', async () => {
    provider.answer(() => chatWithUsage('acme-llm-1-2026-01-02', { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 90 } }));
    const { nebuly, steps } = nebulyWith({ 'ACME-LLM-1': { input: 10, output: 30 } });
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await client.chat.completions.create({ model: 'acme', messages: [{ role: 'user', content: 'One' }] });
    await nebuly.shutdown();
    // No cached-input price given: cached tokens at the input price.
    expect(steps()[0]).toMatchObject({ cost: micro(perMillion(100, 10) + perMillion(10, 30)) });
  });
});

describe('Anthropic', () => {
  const usage = { input_tokens: 21, cache_creation_input_tokens: 1500, cache_read_input_tokens: 12_000, output_tokens: 393 };
  // claude-haiku-4-5: $1 input, $1.25 cache writes (5 minutes), $0.10 cache hits, $5 output.
  const expected = micro(perMillion(21, 1) + perMillion(1500, 1.25) + perMillion(12_000, 0.1) + perMillion(393, 5));

  it('a message with cache reads and writes costs each at its rate', async () => {
    provider.answer(() => {
      const reply = anthropicMessage({ model: 'claude-haiku-4-5-20251001', text: 'Order 7 shipped.' }) as { json: { usage: unknown } };
      reply.json.usage = usage;
      return reply;
    });
    const { nebuly, steps, errors } = nebulyWith();
    const client = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Where is order 7?' }] });
    await nebuly.shutdown();
    expect(errors).toEqual([]);
    expect(steps()).toEqual([expect.objectContaining({ model: 'claude-haiku-4-5-20251001', output_tokens: 393, cost: expected })]);
  });

  it('streamed: the cache counts of message_start and the output of message_delta', async () => {
    provider.answer(() => {
      const events = anthropicEvents({ model: 'claude-haiku-4-5-20251001', text: 'Order 7 shipped.', outputTokens: 393 });
      const start = events[0] as { data: { message: { usage: unknown } } };
      start.data.message.usage = { ...usage, output_tokens: 1 };
      return { events };
    });
    const { nebuly, steps } = nebulyWith();
    const client = observeAnthropic(anthropic(), { nebuly, endUser: 'user-1' });
    const stream = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Where?' }], stream: true });
    for await (const event of stream) void event;
    await nebuly.shutdown();
    expect(steps()).toEqual([expect.objectContaining({ output_tokens: 393, cost: expected })]);
  });
});
