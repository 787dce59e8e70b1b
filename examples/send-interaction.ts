// Sends one interaction with its trace and feedback through the single-interaction API,
// then a broken one, to show the ValidationError that stops it before the wire.
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/send-interaction.ts
import { NebulyClient, ValidationError, type SendInteractionParams } from 'nebuly-client';

const nebuly = new NebulyClient(); // NEBULY_API_KEY, NEBULY_REGION / NEBULY_BASE_URL

const question = 'Can I change my flight to Friday?';
const answer = 'Yes: changes are free up to 24 hours before departure.';
const timeStart = new Date();

const result = await nebuly.interactions.send({
  interaction: {
    conversation_id: 'support-4711',
    end_user: 'b6f0c1…', // a hash, not an email: see hashEndUser()
    input: question,
    output: answer,
    time_start: timeStart,
    time_end: new Date(),
    tags: { channel: 'web', country: 'IT' },
  },
  traces: [
    { source: 'fares-kb', input: 'change flight fee', outputs: ['Changes are free until 24h before.'] },
    {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a travel assistant.' },
        { role: 'user', content: question },
      ],
      output: answer,
      input_tokens: 41,
      output_tokens: 14,
    },
  ],
  user_feedback: [{ slug: 'thumbs_up' }],
});
console.log('accepted with status', result.status);

// The same call with three mistakes, as data from elsewhere can have them. Bad input never
// reaches the wire: the call rejects with a ValidationError that lists every problem by path.
const untrusted: unknown = JSON.parse(`{
  "interaction": { "conversation_id": "support-4711", "end_user": "b6f0c1…", "input": "Hi", "output": "Hello",
                   "time_start": "yesterday", "time_end": "${new Date().toISOString()}" },
  "traces": [{ "model": "gpt-4o-mini", "messages": [{ "role": "bot", "content": "Hi" }], "output": "Hello", "input_tokens": -3 }]
}`);
try {
  await nebuly.interactions.send(untrusted as SendInteractionParams);
} catch (error) {
  if (!(error instanceof ValidationError)) throw error;
  console.log(`rejected before sending: ${error.name}`);
  for (const issue of error.issues) console.log(`  ${issue.pathText}: ${issue.message}`);
}
