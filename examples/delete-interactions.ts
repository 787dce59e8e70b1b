// Deletes stored interactions by filter: a user's right to erasure, say.
//
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/delete-interactions.ts
import { NebulyClient } from 'nebuly-client';

const nebuly = new NebulyClient();

// Filters are AND'd; the values of one filter are OR'd. With no filter at all, every
// interaction of the project is deleted, so say what you mean.
const { message } = await nebuly.interactions.delete({
  filters: [
    { kind: 'user', values: ['b6f0c1…'] },
    { kind: 'tag', tag: 'channel', values: ['web', 'mobile'] },
  ],
  time_range: { start: '2026-01-01T00:00:00Z', end: new Date() },
});
console.log(message);
