// Reads back what was ingested: one page, every page with `for await`, one interaction's
// detail, tags added once they are known, and an export of a range longer than the
// service's 7-day window.
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/read-interactions.ts
import { NebulyClient } from 'nebuly-client';

const nebuly = new NebulyClient(); // NEBULY_API_KEY, NEBULY_REGION / NEBULY_BASE_URL
const DAY = 86_400_000;
const from = new Date(Date.UTC(2026, 9, 1));
const to = new Date(from.getTime() + 20 * DAY);

// Something to read: one interaction a day for 20 days.
for (let day = 0; day < 20; day += 1) {
  const start = new Date(from.getTime() + day * DAY + 9 * 3_600_000);
  await nebuly.interactions.send({
    interaction: {
      conversation_id: `ticket-${Math.floor(day / 5)}`,
      end_user: `user-${day % 3}`,
      input: `Question of day ${day + 1}`,
      output: `Answer of day ${day + 1}`,
      time_start: start,
      time_end: new Date(start.getTime() + 1_200),
    },
    traces: [],
  });
}

const time_range = { start: from, end: to };
const page = await nebuly.interactions.list({ time_range, limit: 5 });
console.log(`page 1: ${page.data.length} of ${page.total} interactions`);

let rows = 0;
for await (const row of nebuly.interactions.list({ time_range, limit: 5, filters: [{ kind: 'user', values: ['user-1'] }] })) {
  rows += 1;
  if (rows === 1) console.log(`first of user-1: ${row.timestamp} ${row.input_text}`);
}
console.log(`user-1 has ${rows} interactions`);

const [first] = page.data;
if (first !== undefined) {
  // A CSAT score known after the fact, on the interaction found by end user and time.
  await nebuly.interactions.addTags({ tags: { csat: '5' }, metadata: { end_user: first.end_user, time_start: first.timestamp } });
  const detail = await nebuly.interactions.get(first.id);
  console.log(`detail of ${first.id}: tags ${JSON.stringify(detail.tags)}, ${detail.conversation.length} turns around it`);
}

let exported = 0;
for await (const window of nebuly.interactions.export({ from, to }).windows()) {
  exported += window.items.length;
  console.log(`export window ${window.index + 1}/${window.count} from ${window.start.slice(0, 10)}: ${window.items.length} interactions`);
}
console.log(`exported ${exported} interactions`);
