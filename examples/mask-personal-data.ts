// Keeps personal data in the process: maskPII as the client's mask, with a rule of your
// own on top, then what a mask that fails sends instead (nothing unmasked).
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/mask-personal-data.ts
import { maskPII, NebulyClient, type Mask } from 'nebuly-client';

// Customer names no pattern can know: replaced in every string of the body.
const CUSTOMER_NAMES = /\b(?:Ana Lima|Bo Berg)\b/g;

const mask: Mask = (payload, context) => {
  const masked = maskPII(payload, context);
  return JSON.parse(JSON.stringify(masked).replace(CUSTOMER_NAMES, '[NAME]'));
};

const nebuly = new NebulyClient({ mask }); // NEBULY_API_KEY, NEBULY_REGION / NEBULY_BASE_URL

const time_start = new Date();
await nebuly.interactions.send({
  interaction: {
    conversation_id: 'support-4712',
    end_user: 'b6f0c1…', // a hash, not an email: see hashEndUser()
    input: 'I am Ana Lima, ana.lima@example.com, card 4111 1111 1111 1111. Refund please.',
    output: 'Done, Ana Lima: the refund goes to the card ending 1111.',
    time_start,
    time_end: new Date(),
  },
  traces: [],
});
console.log('sent masked');

// A mask that throws: the content fields go out as [MASK FAILED], and onError is told.
const broken = new NebulyClient({
  mask: () => {
    throw new Error('the masking service is down');
  },
  onError: (error) => console.log(`onError: ${error.name}: ${error.message}`),
});
await broken.conversations.send({
  conversation: {
    end_user: 'b6f0c1…',
    interactions: [{ input: 'My IBAN is DE89 3704 0044 0532 0130 00', output: 'Thanks!', time_start, time_end: new Date() }],
  },
});
console.log('sent with placeholders');
