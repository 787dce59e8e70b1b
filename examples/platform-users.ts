// The project's platform users: insert, list, and delete the ones who left.
//
//   npm run reference-server -- --port 8787 --api-key dev-key     (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/platform-users.ts
import { NebulyClient } from 'nebuly-client';

const nebuly = new NebulyClient();

await nebuly.platformUsers.insert({
  users: [
    { end_user: 'u-2001', tags: { team: 'support' }, active_from: '2026-01-01' },
    { end_user: 'u-2002', tags: { team: 'sales' }, active_from: '2026-01-01' },
  ],
});
console.log('platform users:', (await nebuly.platformUsers.list()).users.map((user) => user.end_user));
console.log((await nebuly.platformUsers.delete({ users: ['u-2002'] })).message);
console.log('platform users:', (await nebuly.platformUsers.list()).users.map((user) => user.end_user));
