/**
 * The ambient target on workerd (the Cloudflare Workers runtime): it follows `await`s with
 * the `nodejs_compat` flag, and holds only during the synchronous part of `fn` without it,
 * as docs/integrations.md says. The main entry and the OpenAI entry, bundled for workers.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundle, serveWorker } from '../helpers/workerd.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

// A worker: one observed client (a stand-in with the OpenAI shape), a call after an await.
const WORKER = `
import { NebulyClient } from ${JSON.stringify(`${SRC}index.ts`)};
import { currentInteractionId, observeOpenAI } from ${JSON.stringify(`${SRC}integrations/openai.ts`)};
const reply = { model: 'm', choices: [{ message: { role: 'assistant', content: 'Hello' } }] };
const openai = observeOpenAI({ chat: { completions: { create: async () => reply } } });
export default {
  async fetch() {
    const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: 'http://nebuly.invalid', fetch: async () => new Response('{}', { status: 202 }) });
    const id = await nebuly.withConversation({ endUser: 'u' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
      return currentInteractionId();
    });
    return Response.json({ recorded: id !== undefined });
  },
};`;

/** Runs the worker on workerd with these compatibility flags; returns its answer to one request. */
async function runWorker(flags: string[]): Promise<unknown> {
  const worker = await serveWorker((await bundle(WORKER, SRC)).code, { compatibilityDate: '2025-09-15', flags });
  try {
    return await (await fetch(worker.baseUrl)).json();
  } finally {
    worker.stop();
  }
}

describe('the ambient target on workerd', () => {
  it('with nodejs_compat, follows awaits: the call after an await is recorded', async () => {
    expect(await runWorker(['nodejs_compat'])).toEqual({ recorded: true });
  }, 30_000);

  it('without it, holds only until the first await: the call is not recorded, nothing breaks', async () => {
    expect(await runWorker([])).toEqual({ recorded: false });
  }, 30_000);
});
