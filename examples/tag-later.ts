// Tags known only after the answer (the support ticket resolved, a CSAT score), added to
// a recorded interaction by its id, while its conversation is open and after it was sent.
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/tag-later.ts
import { NebulyClient } from 'nebuly-client';

const nebuly = new NebulyClient({ onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`) });

// A chat: keep each turn's id with the message you show, for what is learned later.
const chatId = `chat-${Date.now()}`;
const conversation = nebuly.conversation({ conversation_id: chatId, end_user: 'user-42', tags: { channel: 'web' } });
const turn = conversation.interaction({ input: 'My parcel never arrived', tags: { ticket: 'open' } });
turn.end({ output: 'Sorry! I opened ticket T-1 for you.' });
const interactionId = turn.id;

// While the conversation is open, the tags are merged into the interaction's own: sent with it.
await nebuly.tag({ conversation_id: chatId, interaction_id: interactionId, tags: { ticket: 'T-1' } });
const outcome = await conversation.end();
console.log(`conversation ${outcome.status}`);

// Days later the ticket is closed and the user rated it: the conversation was sent, so the
// tags go to the tags endpoint, which finds the interaction by its end user and start time.
await nebuly.tag({ conversation_id: chatId, interaction_id: interactionId, tags: { ticket: 'resolved', csat: '5' } });
await nebuly.flush();

// Read back what the service holds.
const now = new Date();
const page = await nebuly.interactions.list({
  time_range: { start: new Date(now.getTime() - 60_000).toISOString(), end: new Date(now.getTime() + 60_000).toISOString() },
  filters: [{ kind: 'user', values: ['user-42'] }],
});
const detail = await nebuly.interactions.get(page.data[0]!.id);
console.log(`tags now: ${JSON.stringify(detail.tags)}`);

await nebuly.shutdown();
