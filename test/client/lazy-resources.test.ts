import { afterAll, beforeAll, expect, it } from 'vitest';
import { NebulyClient, ValidationError } from '../../src/index.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/index.js';

// The resources load at their first call (src/resources/lazy-resources.ts): each shape a
// method returns must behave as the loaded method's, against a real server.
const KEY = 'lazy-resources-key';
let server: ReferenceServer;
const start = new Date(Date.now() - 60 * 60_000);
const time_range = { start: start.toISOString(), end: new Date(Date.now() + 60_000).toISOString() };
const client = () => new NebulyClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0, timeoutMs: 5_000 });

beforeAll(async () => {
  server = await createReferenceServer({ apiKeys: { [KEY]: 'lazy' }, port: 0 });
  const nebuly = client();
  for (let index = 0; index < 5; index += 1) {
    const time = new Date(start.getTime() + (index + 1) * 60_000);
    await nebuly.interactions.send({
      interaction: { conversation_id: 'c', input: `in ${index}`, output: 'out', time_start: time, time_end: time, end_user: 'user' },
      traces: [],
    });
  }
});
afterAll(() => server.close());

it('answers a promising method once loaded, and rejects bad params with the same ValidationError', async () => {
  const nebuly = client();
  await expect(nebuly.eligibleUsers.list()).resolves.toMatchObject({ users: expect.any(Array) });
  await expect(nebuly.interactions.get(123 as never)).rejects.toBeInstanceOf(ValidationError);
});

it("awaits interactions.list() as its first page and iterates every page, as the loaded PagePromise", async () => {
  const nebuly = client();
  const page = await nebuly.interactions.list({ time_range, limit: 2 });
  expect(page.data).toHaveLength(2);
  const inputs: string[] = [];
  for await (const row of nebuly.interactions.list({ time_range, limit: 2 })) inputs.push(String(row.input_text));
  expect(inputs.sort()).toEqual(['in 0', 'in 1', 'in 2', 'in 3', 'in 4']);
  const listed = nebuly.interactions.list({ time_range: 'not a range' as never });
  await expect(listed.catch((error: unknown) => error)).resolves.toBeInstanceOf(ValidationError);
  let settled = false;
  await nebuly.interactions.list({ time_range, limit: 1 }).finally(() => {
    settled = true;
  });
  expect(settled).toBe(true);
});

it('iterates interactions.export() and its windows, as the loaded InteractionExport', async () => {
  const nebuly = client();
  const range = { from: time_range.start, to: time_range.end };
  const items: unknown[] = [];
  for await (const item of nebuly.interactions.export(range)) items.push(item);
  expect(items).toHaveLength(5);
  const windows: number[] = [];
  for await (const window of nebuly.interactions.export(range).windows()) windows.push(window.items.length);
  expect(windows).toEqual([5]);
});
