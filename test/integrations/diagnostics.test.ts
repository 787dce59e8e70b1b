/**
 * Capture diagnostics (issue 19, item 5): what makes the data silently poorer is said
 * once per kind, at info, through the client's logger.
 */
import Anthropic from '@anthropic-ai/sdk';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { embed, generateText, wrapEmbeddingModel, wrapLanguageModel } from 'ai';
import { MockEmbeddingModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/index.js';
import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { observeAnthropic } from 'nebuly-client/anthropic';
import { NebulyCallbackHandler } from 'nebuly-client/langchain';
import { observeOpenAI } from 'nebuly-client/openai';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import { anthropicMessage, openAIChatChunks, openAIChatCompletion } from '../../examples/support/replies.js';
import { answer, mockModel } from './ai-sdk-fixtures.js';
import { ANSWER, collect, MESSAGES, openai, provider, useFakeProvider } from './openai/provider.js';

useFakeProvider();

/** A client whose log lines are kept, at `level`. */
function loggedClient(level: 'info' | 'warn') {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const lines: { level: string; message: string; fields: unknown }[] = [];
  const keep = (at: string) => (message: string, fields?: unknown) => void lines.push({ level: at, message, fields });
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    logLevel: level,
    logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') },
  });
  const diagnostics = () => lines.filter((line) => line.message.startsWith('nebuly-client integration:'));
  const versions = () => lines.filter((line) => (line.fields as { kind?: string } | undefined)?.kind === 'untested_version');
  return { nebuly, diagnostics, versions };
}

describe('capture diagnostics', () => {
  it('a stream without usage is said once, at info, with the way to get usage', async () => {
    provider.answer(() => ({ events: openAIChatChunks(ANSWER) }));
    const { nebuly, diagnostics } = loggedClient('info');
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    for (let call = 0; call < 3; call += 1) {
      await collect(await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true }));
    }
    expect(diagnostics()).toEqual([
      { level: 'info', message: expect.stringContaining('includeUsage: true') as string, fields: { kind: 'stream_without_usage' } },
    ]);
    await nebuly.shutdown();
  });

  it('with includeUsage, nothing is said', async () => {
    provider.answer((request) => ({
      events: openAIChatChunks(ANSWER, { withUsage: (request.body as { stream_options?: unknown }).stream_options !== undefined }),
    }));
    const { nebuly, diagnostics } = loggedClient('info');
    const observed = observeOpenAI(openai(), { nebuly, endUser: 'user-1' }, { includeUsage: true });
    await collect(await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true }));
    expect(diagnostics()).toEqual([]);
    await nebuly.shutdown();
  });

  it('a model call without token counts is said once; below info, nothing is written', async () => {
    const noUsage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
    for (const level of ['info', 'warn'] as const) {
      const { nebuly, diagnostics } = loggedClient(level);
      const model = wrapLanguageModel({
        model: mockModel({ generate: [answer('Hi.', noUsage), answer('Hi again.', noUsage)] }),
        middleware: nebulyMiddleware({ nebuly, endUser: 'user-1' }),
      });
      await generateText({ model, prompt: 'Hi' });
      await generateText({ model, prompt: 'Hi' });
      expect(diagnostics().map((line) => line.fields)).toEqual(level === 'info' ? [{ kind: 'call_without_tokens' }] : []);
      await nebuly.shutdown();
    }
  });
});

/** `client`, claiming another version: Stainless clients tell theirs in their user agent (`getUserAgent()`). */
function claiming<Client extends object>(client: Client, userAgent: string): Client {
  return Object.assign(client, { getUserAgent: () => userAgent });
}

const untested = (framework: string, version: string, tested: string) => ({
  level: 'info',
  message: `nebuly-client: ${framework} ${version} is a version this integration was not tested with (tested: ${tested}); it may record less or nothing: see the Versions table of docs/integrations.md.`,
  fields: { kind: 'untested_version', subject: framework },
});

describe('a framework version the integration was not tested with', () => {
  const providerOptions = () => ({ apiKey: 'sk-fake-key', baseURL: `${provider.url}/v1`, maxRetries: 0 });

  it('observeOpenAI: an untested major of openai is told once, naming the version and the tested majors; the installed one is not', async () => {
    provider.answer(() => openAIChatCompletion(ANSWER));
    const { nebuly, versions } = loggedClient('info');
    const target = { nebuly, endUser: 'user-1' };
    await observeOpenAI(new OpenAI(providerOptions()), target).chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(versions()).toEqual([]);
    const observed = observeOpenAI(claiming(new OpenAI(providerOptions()), 'OpenAI/JS 9.0.1'), target);
    await observed.chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    await observed.withOptions({ timeout: 5_000 }).chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    expect(versions()).toEqual([untested('openai', '9.0.1', '6.x, 7.x')]);
    await nebuly.shutdown();
  });

  it('observeAnthropic: the same for @anthropic-ai/sdk', async () => {
    provider.answer(() => anthropicMessage({ model: 'claude-test', text: 'Hi.', inputTokens: 3, outputTokens: 2 }));
    const { nebuly, versions } = loggedClient('info');
    const params = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
    const options = { apiKey: 'sk-ant-fake-key', baseURL: provider.url, maxRetries: 0 };
    await observeAnthropic(new Anthropic(options), { nebuly, endUser: 'user-1' }).messages.create(params);
    expect(versions()).toEqual([]);
    for (let call = 0; call < 2; call += 1) await observeAnthropic(claiming(new Anthropic(options), 'Anthropic/JS 3.2.0'), { nebuly, endUser: 'user-1' }).messages.create(params);
    expect(versions()).toEqual([untested('@anthropic-ai/sdk', '3.2.0', '1.x')]);
    await nebuly.shutdown();
  });

  it('NebulyCallbackHandler: the @langchain/core version a model lists in its metadata', async () => {
    const { nebuly, versions } = loggedClient('info');
    const handler = new NebulyCallbackHandler({ nebuly, endUser: 'user-1' });
    await new FakeListChatModel({ responses: ['Hi.'] }).invoke('Hi', { callbacks: [handler] });
    expect(versions()).toEqual([]);
    const future = new FakeListChatModel({ responses: ['Hi.', 'Hi again.'] });
    // What a model of @langchain/core 2 would list (its constructor lists the installed 1.x).
    future.metadata = { versions: { '@langchain/core': '2.0.0' } };
    await future.invoke('Hi', { callbacks: [handler] });
    await future.invoke('Hi', { callbacks: [handler] });
    expect(versions()).toEqual([untested('@langchain/core', '2.0.0', '1.x')]);
    await nebuly.shutdown();
  });

  it('nebulyMiddleware: the ai version of the call’s user agent, for model and embedding calls', async () => {
    const { nebuly, versions } = loggedClient('info');
    const middleware = nebulyMiddleware({ nebuly, endUser: 'user-1' });
    await generateText({ model: wrapLanguageModel({ model: mockModel({ generate: [answer('Hi.')] }), middleware }), prompt: 'Hi' });
    const embedder = new MockEmbeddingModelV3({ doEmbed: async () => ({ embeddings: [[0.5]], warnings: [] }) });
    await embed({ model: wrapEmbeddingModel({ model: embedder, middleware }), value: 'order 7' });
    expect(versions()).toEqual([]);
    // As ai 8 would call the model: its version in the user agent of the call's headers.
    const model = wrapLanguageModel({ model: mockModel({ generate: [answer('Hi.'), answer('Hi.')] }), middleware });
    for (let call = 0; call < 2; call += 1) {
      await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], headers: { 'user-agent': 'my-app/1.0 ai/8.0.0' } });
    }
    expect(versions()).toEqual([untested('ai', '8.0.0', '6.x, 7.x')]);
    await nebuly.shutdown();
  });
});
