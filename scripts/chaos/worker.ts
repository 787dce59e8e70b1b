/**
 * One instance of a chat backend in the chaos run: a process with its own client over the
 * shared Redis store, doing what the coordinator says through the public API only.
 */
import { createClient, createCluster } from 'redis';
import { NebulyClient } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { API_KEY, type Command, type Reply, turnInput, type WorkerConfig } from './protocol.js';

const config = JSON.parse(process.argv[2]!) as WorkerConfig;
const send = (reply: Reply) => process.send?.(reply);

const redis = config.cluster ? createCluster({ rootNodes: config.redisUrls.map((url) => ({ url })) }) : createClient({ url: config.redisUrls[0]! });
// The connection's own errors (a restart in the restart mode) are the client's to retry, not reports.
redis.on('error', () => undefined);
await redis.connect();

const nebuly = new NebulyClient({
  apiKey: API_KEY,
  baseUrl: config.baseUrl,
  maxRetries: 5,
  headers: { 'x-chaos-sender': config.name },
  onError: (error) => send({ kind: 'error', message: `${error.name}: ${error.message}` }),
  recorder: {
    store: redisStore(redis, { prefix: config.prefix }),
    idleTimeoutMs: config.idleTimeoutMs,
    leaseMs: config.leaseMs,
    sweepIntervalMs: config.sweepIntervalMs,
  },
});

async function run(command: Command): Promise<Reply> {
  switch (command.kind) {
    case 'turn': {
      // A request of the chat: resume the conversation, record the exchange, make sure it is stored.
      const conversation = nebuly.conversation({ conversation_id: command.conversationId, end_user: command.endUser });
      const input = turnInput(command.conversationId, command.turn);
      const turn = conversation.interaction({ input });
      turn.llm({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: input }], output: `answer to ${input}` });
      turn.end({ output: `answer to ${input}` });
      await nebuly.flush();
      return { kind: 'done', id: command.id, interactionId: turn.id };
    }
    case 'feedback':
      await nebuly.feedback({ conversation_id: command.conversationId, interaction_id: command.interactionId, slug: 'thumbs_up' });
      return { kind: 'done', id: command.id };
    case 'end':
      await nebuly.conversation({ conversation_id: command.conversationId, end_user: command.endUser }).end();
      return { kind: 'done', id: command.id };
    case 'sweep':
      await nebuly.sweep();
      return { kind: 'done', id: command.id };
    case 'shutdown':
      await nebuly.shutdown();
      await redis.close();
      return { kind: 'done', id: command.id };
  }
}

process.on('message', (command: Command) => {
  run(command).then(
    (reply) => {
      send(reply);
      if (command.kind === 'shutdown') process.disconnect();
    },
    (error: unknown) => send({ kind: 'error', id: command.id, message: String(error) }),
  );
});
send({ kind: 'ready' });
