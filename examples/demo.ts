// The demo of `npm run demo`: starts the reference server on loopback, runs a realistic
// integration against it with the SDK, prints what the server stored, and exits.
//
//   npm ci && npm run demo
//
// Nothing leaves this machine: the server is in-process, on 127.0.0.1, on a free port.
import {
  DeliveryError,
  embeddingStep,
  hashEndUser,
  llmStep,
  NebulyClient,
  retrievalStep,
  usdToMicroDollars,
} from '../src/index.js';
import { createReferenceServer } from '../src/reference-server/index.js';
import { line, printInteractions, printRequests, printUsers, section } from './demo-report.js';

const API_KEY = 'demo-key';
const PROJECT = 'demo-project';

const server = await createReferenceServer({ apiKeys: { [API_KEY]: PROJECT } });
/** What onError received and could not be sent: kept, to be sent again (section 7). */
const undelivered: DeliveryError[] = [];
const nebuly = new NebulyClient({
  apiKey: API_KEY,
  baseUrl: server.url,
  // Background work (the recorder) never throws into the app: what fails arrives here.
  onError: (error) => {
    line(`onError: ${error.name}: ${error.message}`);
    if (error instanceof DeliveryError) {
      line(`  its payload is kept (${error.payload.length} bytes of JSON), to be sent again later`);
      undelivered.push(error);
    }
  },
});

try {
  console.log(`Nebuly reference server listening on ${server.url} (project "${PROJECT}")`);

  // End users are sent as salted hashes, never as e-mail addresses.
  const salt = 'demo-salt';
  const [alice, bob, carol] = await Promise.all(
    ['alice@example.com', 'bob@example.com', 'carol@example.com'].map((email) => hashEndUser(email, { salt })),
  ) as [string, string, string];
  const names = new Map([[alice, 'alice'], [bob, 'bob'], [carol, 'carol']]);

  section('1. Eligible users, synced from the company directory');
  const inserted = await nebuly.eligibleUsers.insert({
    users: [
      { end_user: alice, tags: { department: 'sales', country: 'IT' }, active_from: '2026-01-01' },
      { end_user: bob, tags: { department: 'support', country: 'FR' }, active_from: '2026-01-15' },
      { end_user: carol, tags: { department: 'legal', country: 'DE' }, active_from: '2026-02-01' },
    ],
  });
  line(`insert: ${inserted.users.length} users inserted`);
  const again = await nebuly.eligibleUsers.insert({
    users: [{ end_user: alice, tags: { department: 'marketing' }, active_from: '2026-03-01' }],
  });
  line(`insert of alice again: ${again.users.length} inserted (an existing end_user is skipped, unchanged)`);
  const updated = await nebuly.eligibleUsers.update({
    users: [{ end_user: bob, tags: { department: 'support', country: 'FR' }, active_from: '2026-01-15', active_to: '2026-06-30' }],
  });
  line(`update: ${updated.users.length} user updated (bob's access ends on 2026-06-30)`);
  const { users } = await nebuly.eligibleUsers.list();
  line(`list: ${users.length} users, in insertion order:`);
  printUsers(users, names);

  section('2. A finished conversation, sent in one bulk request (conversations.send)');
  const started = Date.now() - 10 * 60_000;
  const minute = (n: number) => new Date(started + n * 60_000);
  const question = 'Can I change my flight to Friday?';
  const answer = 'Yes: changes are free up to 24 hours before departure.';
  const sent = await nebuly.conversations.send({
    conversation: {
      end_user: alice,
      interactions: [
        {
          input: question,
          output: answer,
          time_start: minute(0),
          time_end: minute(1),
          tags: { channel: 'web', topic: 'changes' },
          trace: [
            embeddingStep({ model: 'text-embedding-3-small', input: question, input_tokens: 9 }),
            retrievalStep({ source: 'fares-kb', input: 'change fee', outputs: ['Changes are free until 24h before departure.'] }),
            llmStep({
              model: 'gpt-4o-mini',
              messages: [
                { role: 'system', content: 'You are the Skyway travel assistant.' },
                { role: 'user', content: question },
              ],
              output: answer,
              input_tokens: 412,
              output_tokens: 18,
              cost: usdToMicroDollars(0.000073),
            }),
          ],
          feedback_actions: [{ slug: 'thumbs_up' }],
        },
        {
          input: 'Do I need my passport for a domestic flight?',
          output: 'An ID card is enough for domestic flights.',
          time_start: minute(2),
          time_end: minute(3),
          tags: { channel: 'web', topic: 'documents' },
          trace: [
            llmStep({
              model: 'gpt-4o-mini',
              messages: [{ role: 'user', content: 'Do I need my passport for a domestic flight?' }],
              output: 'An ID card is enough for domestic flights.',
              input_tokens: 388,
              output_tokens: 11,
              cost: usdToMicroDollars(0.000065),
            }),
          ],
          feedback_actions: [{ slug: 'rating', value: 5 }, { slug: 'copy_output' }],
        },
      ],
    },
  });
  line(`answered ${sent.status} ${JSON.stringify(sent.body)}`);

  section('3. A conversation recorded as it happens (nebuly.startConversation)');
  const conversation = nebuly.startConversation({ end_user: bob, tags: { channel: 'mobile' } });
  const turn = conversation.interaction({ input: 'My bag did not arrive in Lyon.' });
  turn.retrieval({ source: 'baggage-tracker', input: 'bag status SKY123', outputs: ['Bag SKY123 is in Paris CDG.'] });
  turn.llm({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'My bag did not arrive in Lyon.' }],
    output: 'Your bag is in Paris and will reach Lyon on the next flight.',
    input_tokens: 520,
    output_tokens: 21,
    cost: usdToMicroDollars(0.00151),
  });
  turn.end({ output: 'Your bag is in Paris and will reach Lyon on the next flight.' });
  turn.feedback({ slug: 'thumbs_down', text: 'I need it today' });
  const outcome = await conversation.end();
  line(`conversation.end(): ${outcome.status}`);

  section('4. A single interaction (interactions.send)');
  const single = await nebuly.interactions.send({
    interaction: {
      conversation_id: 'support-4711',
      end_user: carol,
      input: 'Please renew my passport data on file.',
      output: 'Done: your passport expires on 2031-04-02.',
      time_start: minute(5),
      time_end: minute(6),
      tags: { channel: 'web', topic: 'documents' },
    },
    traces: [{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Please renew my passport data on file.' }], output: 'Done.' }],
    user_feedback: [{ slug: 'thumbs_up' }],
  });
  line(`answered ${single.status} ${JSON.stringify(single.body)}`);

  section('5. What the server stored');
  printInteractions(server.store.listInteractions(PROJECT), names);

  section('6. Deletion by filter (interactions.delete)');
  const filters = [{ kind: 'keyword' as const, values: ['passport'] }];
  const { message } = await nebuly.interactions.delete({ filters, time_range: { start: minute(0) } });
  line(`filters ${JSON.stringify(filters)}, from ${minute(0).toISOString()}: "${message}"`);
  printInteractions(server.store.listInteractions(PROJECT), names);

  section('7. Reliability: faults injected into the server');
  // Two 503s in a row: the client retries (honouring Retry-After) and the call succeeds.
  const usersPath = '/api/external/eligible-users';
  server.faults.add({ status: 503, retryAfter: 0, times: 2, method: 'GET', path: usersPath });
  const before = server.requests.count();
  const relisted = await nebuly.eligibleUsers.list();
  const attempts = server.requests.all().slice(before).map((request) => request.status);
  line(`eligibleUsers.list() with two 503s injected: ${attempts.join(' → ')}, ${relisted.users.length} users after ${attempts.length} attempts`);

  // An outage longer than the retries: the recorder gives up, the app is not disturbed,
  // and onError receives the conversation with its payload.
  const conversationPath = '/event-ingestion/api/v2/events/trace_conversation';
  const outage = server.faults.add({ status: 503, retryAfter: 0, times: Infinity, path: conversationPath });
  const late = nebuly.startConversation({ end_user: carol, conversation_id: 'outage-1' });
  late.interaction({ input: 'Is flight SKY42 on time?' }).end({ output: 'Yes: it leaves at 18:05.' });
  const lateOutcome = await late.end();
  line(`conversation.end() during an outage: ${lateOutcome.status}, after ${outage.hits} attempts`);
  outage.remove();
  for (const error of undelivered.splice(0)) {
    const resent = await nebuly.conversations.send(JSON.parse(error.payload));
    line(`the outage is over: ${error.conversationId} sent again from its payload, answered ${resent.status}`);
  }

  section('8. What went over the wire');
  printRequests(server.requests.all());
} finally {
  await nebuly.shutdown();
  await server.close();
}
console.log('\nDone: the server is closed.');
