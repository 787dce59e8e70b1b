/**
 * The reference server's page (`/`) in a real headless Chromium: what the SDK stored, as
 * a person sees it, with no key; hostile content shown as text, never run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from 'nebuly-client';
import { createReferenceServer, type ReferenceServer } from 'nebuly-client/reference-server';
import { openPage } from './chromium.js';

const KEY = 'page-secret-canary-key';
const HOSTILE = `<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>`;

let server: ReferenceServer;

beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { [KEY]: 'page-project' } });
  const nebuly = new NebulyClient({ apiKey: KEY, baseUrl: server.url });
  const first = nebuly.startConversation({ end_user: 'hashed-user-1', tags: { plan: 'pro' } });
  first
    .interaction({ input: `Where is my order? ${HOSTILE}` })
    .retrieval({ source: 'orders-db', input: 'order 7', outputs: ['shipped'] })
    .llm({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where?' }], output: 'It shipped.', input_tokens: 21, output_tokens: 5 })
    .feedback({ slug: 'thumbs_up' })
    .end({ output: 'It shipped.' });
  await first.end();
  await nebuly.interactions.send({
    interaction: {
      conversation_id: 'chat-42',
      input: 'Hi',
      output: 'Hello!',
      time_start: new Date(),
      time_end: new Date(),
      end_user: 'hashed-user-2',
    },
    traces: [{ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!' }],
  });
  await nebuly.shutdown();
});

afterAll(async () => {
  await server.close();
});

describe('the reference server page in Chromium', () => {
  it('shows what was stored, newest first, without a key; hostile content is text, nothing runs', async () => {
    const { page, close } = await openPage(`${server.url}/`);
    try {
      const sections = page.locator('section.conversation');
      await expect.poll(() => sections.count()).toBe(2);
      // Newest first: the single interaction of `chat-42` came after the conversation.
      expect(await sections.nth(0).getAttribute('data-conversation-id')).toBe('chat-42');
      expect(await sections.nth(1).getAttribute('data-conversation-id')).toBe('conversation-1');

      const conversation = sections.nth(1);
      expect(await conversation.locator('.input').innerText()).toBe(`Where is my order? ${HOSTILE}`);
      expect(await conversation.locator('.output').innerText()).toBe('It shipped.');
      expect(await conversation.locator('.end-user').innerText()).toBe('hashed-user-1');
      expect(await conversation.locator('.tags').innerText()).toBe('plan=pro');
      expect(await conversation.locator('.step.llm').innerText()).toContain('gpt-4o 21 in, 5 out tokens');
      expect(await conversation.locator('.step.retrieval').innerText()).toContain('source orders-db');
      expect(await conversation.locator('.feedback').innerText()).toBe('thumbs_up');

      // The hostile input is text: no element was made from it, no script ran.
      expect(await page.locator('img, script').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.content()).not.toContain(KEY);
    } finally {
      await close();
    }
  });
});
