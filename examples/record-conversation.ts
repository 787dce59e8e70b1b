// Records a support chat as it happens and sends it in one request when it ends.
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/record-conversation.ts
import { hashEndUser, NebulyClient, usdToMicroDollars } from 'nebuly-client';

const nebuly = new NebulyClient({
  // Background failures (a conversation that could not be delivered, bad data) land here,
  // with the payload, instead of being thrown into the chatbot.
  onError: (error) => console.error(`[nebuly] ${error.name}: ${error.message}`),
  recorder: { idleTimeoutMs: 10 * 60_000 },
});

/** Stands in for your LLM call. */
async function askModel(messages: { role: 'user' | 'assistant'; content: string }[]) {
  return { text: `You asked: ${messages.at(-1)?.content}`, inputTokens: 20, outputTokens: 8 };
}

const conversation = nebuly.startConversation({
  end_user: await hashEndUser('alice@example.com', { salt: 'my-app' }),
  tags: { channel: 'web' },
});
const history: { role: 'user' | 'assistant'; content: string }[] = [];

for (const question of ['Where is my order?', 'Can I change the address?']) {
  const turn = conversation.interaction({ input: question }); // time_start = now
  history.push({ role: 'user', content: question });
  const answer = await askModel(history);
  turn.llm({
    model: 'gpt-4o-mini',
    messages: history, // copied at the call: later pushes do not change what was recorded
    output: answer.text,
    input_tokens: answer.inputTokens,
    output_tokens: answer.outputTokens,
    cost: usdToMicroDollars(0.000015),
  });
  turn.end({ output: answer.text }); // time_end = now
  history.push({ role: 'assistant', content: answer.text });
  turn.feedback({ slug: 'thumbs_up' }); // feedback may come after the answer
}

// One bulk request; never rejects: the outcome says what happened.
const outcome = await conversation.end();
console.log('conversation', outcome.conversationId, outcome.status);

// On the way out: ends what is still open, sends everything, stops the timers.
await nebuly.shutdown({ timeoutMs: 5_000 });
