// How to test your own integration offline: the MSW handlers that ship with the SDK
// answer like the service, and their store shows what your code sent.
//
//   npx vitest run examples/testing-with-msw.test.ts
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { NebulyClient, ValidationError } from 'nebuly-client';
import { createHandlers } from 'nebuly-client/msw';

const reference = createHandlers({ apiKeys: { 'test-key': 'my-project' } });
const server = setupServer(...reference.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  reference.store.clear();
  reference.faults.clear();
  reference.requests.clear();
});
afterAll(() => server.close());

/** Your code: answers a question and records the exchange. */
async function answerQuestion(nebuly: NebulyClient, userId: string, question: string) {
  const conversation = nebuly.startConversation({ end_user: userId });
  const turn = conversation.interaction({ input: question });
  const answer = `Answer to: ${question}`;
  turn.llm({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }], output: answer });
  turn.end({ output: answer });
  return conversation.end();
}

it('records the exchange with its LLM step', async () => {
  const nebuly = new NebulyClient({ apiKey: 'test-key' }); // the default US host: MSW answers it
  const outcome = await answerQuestion(nebuly, 'user-1', 'Where is my order?');

  expect(outcome.status).toBe('delivered');
  const [stored] = reference.store.listInteractions('my-project');
  expect(stored).toMatchObject({
    end_user: 'user-1',
    input: 'Where is my order?',
    output: 'Answer to: Where is my order?',
    trace: [{ model: 'gpt-4o-mini' }],
  });
});

it('survives a service outage: the SDK retries', async () => {
  reference.faults.add({ status: 503, retryAfter: '0', times: 2 });
  const nebuly = new NebulyClient({ apiKey: 'test-key', retryDelayMs: 1 });
  await expect(answerQuestion(nebuly, 'user-2', 'Hello?')).resolves.toMatchObject({ status: 'delivered' });
  expect(reference.store.listInteractions('my-project')).toHaveLength(1);
});

it('rejects bad input before anything is sent', async () => {
  const nebuly = new NebulyClient({ apiKey: 'test-key' });
  await expect(nebuly.eligibleUsers.insert({ users: [{ end_user: '', tags: {}, active_from: '2026-01-01' }] })).rejects.toThrow(
    ValidationError,
  );
  expect(reference.requests.count()).toBe(0);
});
