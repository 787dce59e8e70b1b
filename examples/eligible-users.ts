// Keeps the project's list of eligible users in sync with your own user directory.
//
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/eligible-users.ts
import { NebulyClient } from 'nebuly-client';

const nebuly = new NebulyClient();

const inserted = await nebuly.eligibleUsers.insert({
  users: [
    { end_user: 'u-1001', tags: { department: 'sales', country: 'IT' }, active_from: '2026-01-01' },
    { end_user: 'u-1002', tags: { department: 'legal' }, active_from: new Date('2026-02-01') },
  ],
});
console.log('inserted', inserted.users.map((user) => user.end_user));

// Update replaces tags and access period of the users matched by end_user.
await nebuly.eligibleUsers.update({
  users: [{ end_user: 'u-1002', tags: { department: 'legal' }, active_from: '2026-02-01', active_to: '2026-06-30' }],
});

const { users } = await nebuly.eligibleUsers.list();
for (const user of users) console.log(user.end_user, user.tags, user.active_from, user.active_to ?? '-');

console.log((await nebuly.eligibleUsers.delete({ users: ['u-1001'] })).message);
