/**
 * `nebuly-client/browser` in a real headless Chromium, against `nebuly.handleFeedback()`
 * mounted (through the guide's Node adapter) on a loopback server: a click sends a thumb,
 * a copy sends `copy_output` with the text copied, a page on an allowed origin
 * (`localhost`, another port) posts across origins, and one on a refused origin cannot.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/index.js';
import { createReferenceHandler } from '../../src/reference-server/index.js';
import { docSnippet, type SnippetProject, writeProject } from '../helpers/doc-snippets.js';
import { launchChromium, openPage } from './chromium.js';

const ENTRY = fileURLToPath(new URL('../../src/browser/index.ts', import.meta.url));
const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';

// The page: an answer, a thumb, and the entry wired as the guide shows. The route and the
// token come in the query string here; a real page gets the token with the answer.
const HTML = `<!doctype html>
<html><body>
<p id="before">Question: what is it?</p>
<p id="answer">The answer is <b>forty-two</b>, as computed.</p>
<button id="thumb">Thumb</button>
<script type="module">
import { captureCopy, sendFeedback } from '/browser.js';
const query = new URLSearchParams(location.search);
const url = query.get('url');
const token = query.get('token');
window.results = [];
window.fetches = 0;
const realFetch = window.fetch;
window.fetch = (...args) => { window.fetches += 1; return realFetch(...args); };
window.copies = 0;
document.addEventListener('copy', () => { window.copies += 1; });
document.getElementById('thumb').addEventListener('click', async () => {
  window.results.push(await sendFeedback({ url, token, slug: query.get('slug') ?? 'thumbs_up' }));
});
window.stop = captureCopy(document.getElementById('answer'), { url, token });
window.ready = true;
</script>
</body></html>`;

let bundleCode: string;
let reference: ReturnType<typeof createReferenceHandler>;
let nebuly: NebulyClient;
let project: SnippetProject;
let browser: Browser;
const servers: Server[] = [];
/** What reached the feedback route: method, origin, and the status it answered. */
const seen: { method: string; origin: string | undefined; status: number }[] = [];

/** A loopback server of the page and the bundle, with the feedback route when given one. */
async function serve(route?: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<number> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/feedback' && route !== undefined) {
      const { method = '', headers } = req;
      res.on('finish', () => seen.push({ method, origin: headers.origin, status: res.statusCode }));
      void route(req, res);
    } else if (path === '/browser.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundleCode);
    else if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
    else res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

let handlerPort: number;
let allowedPort: number;
let refusedPort: number;

beforeAll(async () => {
  // The entry bundled for a browser as a user's bundler would: minified, esm.
  const built = await build({ entryPoints: [ENTRY], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  bundleCode = built.outputFiles[0]!.text;
  allowedPort = await serve();
  refusedPort = await serve();
  reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    feedbackSecret: 'browser-test-secret-0123456789abcdef',
    feedbackOrigins: [`http://localhost:${allowedPort}`],
  });
  // The guide's Node adapter, with this test's client as its `lib/nebuly`.
  (globalThis as { nebulyOfTheBrowserTest?: NebulyClient }).nebulyOfTheBrowserTest = nebuly;
  project = writeProject({
    'lib/nebuly.ts': 'export const nebuly = (globalThis as { nebulyOfTheBrowserTest?: unknown }).nebulyOfTheBrowserTest;\n',
    'feedback-route.ts': docSnippet('docs/recorder.md', '// feedback-route.ts (Express'),
  });
  const { feedbackRoute } = await project.load<{ feedbackRoute: (req: IncomingMessage, res: ServerResponse) => Promise<void> }>('feedback-route.ts');
  handlerPort = await serve(feedbackRoute);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await nebuly?.shutdown({ timeoutMs: 1_000 });
  project?.remove();
});

/** A page of `origin` posting to the handler's route with a fresh token for `chat`'s one turn. */
async function pageFor(origin: string, chat: string, slug?: string): Promise<{ page: Page; close: () => Promise<void>; turnId: string }> {
  const turn = nebuly.conversation({ conversation_id: chat, end_user: 'u' }).interaction({ input: 'what is it?' });
  turn.end({ output: 'The answer is forty-two, as computed.' });
  const query = new URLSearchParams({ url: `http://127.0.0.1:${handlerPort}/api/feedback`, token: await turn.feedbackToken() });
  if (slug !== undefined) query.set('slug', slug);
  const { page, close } = await openPage(`${origin}/?${query}`, browser);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  return { page, close, turnId: turn.id };
}

/** The feedback actions sent with the conversation `chat`, once ended (the one conversation its end sends). */
async function actionsOf(chat: string): Promise<unknown[]> {
  const before = reference.requests.all({ path: CONVERSATIONS }).length;
  await nebuly.conversation({ conversation_id: chat, end_user: 'u' }).end();
  const sent = reference.requests.all({ path: CONVERSATIONS }).slice(before);
  expect(sent).toHaveLength(1);
  const { conversation } = JSON.parse(sent[0]!.body) as { conversation: { interactions: { feedback_actions: unknown[] }[] } };
  return conversation.interactions.flatMap((interaction) => interaction.feedback_actions);
}

const resultsOf = (page: Page) => page.evaluate(() => (window as unknown as { results: boolean[] }).results);

describe('nebuly-client/browser in Chromium', () => {
  it('a click sends the thumb, and a copy from the answer sends copy_output with the text copied; stop() ends it', async () => {
    const { page, close } = await pageFor(`http://127.0.0.1:${handlerPort}`, 'browser-same-origin');
    try {
      await page.click('#thumb');
      await page.waitForFunction(() => (window as unknown as { results: boolean[] }).results.length === 1);
      expect(await resultsOf(page)).toEqual([true]);

      // A selection from the question into the answer: only its part inside the answer is sent.
      await page.evaluate(() => {
        const range = document.createRange();
        range.setStart(document.getElementById('before')!.firstChild!, 10);
        range.setEnd(document.querySelector('#answer b')!.firstChild!, 5);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(range);
      });
      const sending = seen.length;
      await page.keyboard.press('Control+C');
      await page.waitForFunction(() => (window as unknown as { copies: number }).copies === 1);
      await expect.poll(() => seen.length).toBeGreaterThan(sending);

      // Stopped: a copy sends nothing more.
      const before = await page.evaluate(() => {
        (window as unknown as { stop: () => void }).stop();
        return (window as unknown as { fetches: number }).fetches;
      });
      await page.keyboard.press('Control+C');
      await page.waitForFunction(() => (window as unknown as { copies: number }).copies === 2);
      expect(await page.evaluate(() => (window as unknown as { fetches: number }).fetches)).toBe(before);
    } finally {
      await close();
    }
    expect(await actionsOf('browser-same-origin')).toEqual([{ slug: 'thumbs_up' }, { slug: 'copy_output', text: 'The answer is forty' }]);
  });

  it('a page on an allowed origin (localhost, another port) posts across origins, preflight and all', async () => {
    const { page, close } = await pageFor(`http://localhost:${allowedPort}`, 'browser-allowed', 'regenerate');
    try {
      await page.click('#thumb');
      await page.waitForFunction(() => (window as unknown as { results: boolean[] }).results.length === 1);
      expect(await resultsOf(page)).toEqual([true]);
    } finally {
      await close();
    }
    const origin = `http://localhost:${allowedPort}`;
    expect(seen.filter((request) => request.origin === origin)).toEqual([
      { method: 'OPTIONS', origin, status: 204 },
      { method: 'POST', origin, status: 204 },
    ]);
    expect(await actionsOf('browser-allowed')).toEqual([{ slug: 'regenerate' }]);
  });

  it('a page on a refused origin gets false, its browser never posts, and nothing is recorded', async () => {
    const { page, close } = await pageFor(`http://localhost:${refusedPort}`, 'browser-refused', 'paste');
    try {
      await page.click('#thumb');
      await page.waitForFunction(() => (window as unknown as { results: boolean[] }).results.length === 1);
      expect(await resultsOf(page)).toEqual([false]);
      // Nor does it throw for input that is no feedback at all, nor captureCopy for no element.
      // (A string: vitest would rewrite an import() written here for Node.)
      const misuse = `(async () => {
        const entry = await import('/browser.js');
        entry.captureCopy(null, null)();
        return [await entry.sendFeedback(undefined), await entry.sendFeedback({ url: 'http://[bad', token: 't', slug: 'thumbs_up' })];
      })()`;
      expect(await page.evaluate(misuse)).toEqual([false, false]);
    } finally {
      await close();
    }
    const origin = `http://localhost:${refusedPort}`;
    // The preflight got no Access-Control-Allow-Origin: the browser sent no POST.
    expect(seen.filter((request) => request.origin === origin)).toEqual([{ method: 'OPTIONS', origin, status: 204 }]);
    expect(await actionsOf('browser-refused')).toEqual([]);
  });
});
