import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { NebulyClient } from '../../src/client.js';
import { ENDPOINTS } from '../../src/core/endpoints.js';
import { writeDeadLetters } from '../../src/node/dead-letters.js';
import { CONVERSATION, KEY, PROJECT, scratchPath, TIMEOUT_MS, useWorlds, world } from '../cli/world.js';

useWorlds();

const INTERACTION = ENDPOINTS.sendInteraction.path;

describe('a conversation the service stored, then answered 504 for', { timeout: TIMEOUT_MS }, () => {
  it.each(['conversation', 'interaction'] as const)(
    'is written to the dead letters with its key (delivery %s), and `nebuly replay` stores it once',
    async (delivery) => {
      const { server, nebuly } = await world();
      server.faults.add({ storeFirst: true, status: 504, times: Infinity });
      const file = scratchPath(`replay-${delivery}.jsonl`);
      const deadLetters = writeDeadLetters(file);
      const nebulyClient = new NebulyClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0, onError: deadLetters, recorder: { delivery } });
      for (let index = 0; index < 5; index += 1) {
        const conversation = nebulyClient.startConversation({ end_user: `u-${index}` });
        conversation.interaction({ input: `q-${index}` }).end({ output: 'a' });
        void conversation.end();
      }
      const report = await nebulyClient.shutdown({ timeoutMs: 10_000 });
      await deadLetters.flush();
      expect(report).toEqual({ delivered: 0, failed: 5, dropped: 0 });

      const records = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
      expect(records).toHaveLength(5);
      for (const line of records) expect(JSON.parse(line)).toMatchObject({ idempotency_key: expect.stringMatching(/\S/) });
      expect(server.store.listInteractions(PROJECT)).toHaveLength(5);

      server.faults.clear();
      const replayed = await nebuly(['replay', file]);
      expect(replayed.stdout).toContain('5 delivered');
      // Each was already stored under the key it is replayed with: stored once.
      expect(server.store.listInteractions(PROJECT)).toHaveLength(5);
      expect(server.requests.count({ path: delivery === 'conversation' ? CONVERSATION : INTERACTION })).toBe(10);
    },
  );
});
