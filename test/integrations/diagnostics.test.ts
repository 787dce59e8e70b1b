/**
 * Capture diagnostics (issue 19, item 5): what makes the data silently poorer is said
 * once per kind, at info, through the client's logger.
 */
import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/index.js';
import { nebulyMiddleware } from 'nebuly-client/ai-sdk';
import { observeOpenAI } from 'nebuly-client/openai';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import { openAIChatChunks } from '../../examples/support/replies.js';
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
  return { nebuly, diagnostics };
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
