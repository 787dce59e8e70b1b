import { interactionData } from './fixtures.js';
import type { NebulyError } from '../src/core/errors.js';
import { collectGarbage } from './heap.js';
import type { Sdk } from './sdk.js';

const CONVERSATIONS = 100;
const TURNS = 100;
/** Conversations of TURNS interactions recorded and sent before measuring. */
const WARM_CONVERSATIONS = 20;

type Conversation = ReturnType<Sdk['NebulyClient']['prototype']['startConversation']>;

function record(conversation: Conversation, d: ReturnType<typeof interactionData>): void {
  const turn = conversation.interaction({ input: d.input, tags: d.tags });
  turn.llm({ model: d.model, messages: d.messages, output: d.output, input_tokens: d.input_tokens, output_tokens: d.output_tokens });
  turn.end({ output: d.output });
}

export interface MemoryResult {
  /** Heap held by buffered interactions over the size of their JSON on the wire. */
  heapBytesPerJsonByte: number;
  interactions: number;
  heapBytes: number;
  jsonBytes: number;
}



/**
 * What buffering costs in memory: CONVERSATIONS × TURNS interactions recorded into open
 * conversations, with fresh data that only the recorder keeps alive, against the bytes
 * of JSON the same conversations then put on the wire. Measured once the interactions
 * are in the store (`flush()` waits for that), as an application's open conversations
 * are between two turns, not while they still wait to be checked.
 */
export async function benchMemory(sdk: Sdk): Promise<MemoryResult> {
  let jsonBytes = 0;
  const errors: NebulyError[] = [];
  const nebuly = new sdk.NebulyClient({
    apiKey: 'bench-key',
    baseUrl: 'http://127.0.0.1:9',
    // The client hands fetch a Request; its body is the JSON as sent.
    fetch: async (input, init) => {
      // Read first, then add: `jsonBytes += await …` would lose concurrent additions.
      const { byteLength } = await new Request(input, init).arrayBuffer();
      jsonBytes += byteLength;
      return new Response(null, { status: 202 });
    },
    onError: (error) => errors.push(error),
    recorder: { idleTimeoutMs: 0 },
  });
  // Warm every path, so that code and lazily built structures are not counted: as many
  // interactions as the optimizing compiler needs to be done with the recording and
  // storing paths (with one, it compiled ~40 bytes of code an interaction of the
  // measured ones, 3 % of the figure).
  for (let w = 0; w < WARM_CONVERSATIONS; w += 1) {
    const warm = nebuly.startConversation({ end_user: `warm-${w}`, tags: { plan: 'pro' } });
    for (let t = 0; t < TURNS; t += 1) record(warm, interactionData(t));
    await warm.end();
  }
  jsonBytes = 0;

  const before = collectGarbage();
  const conversations = Array.from({ length: CONVERSATIONS }, (_, c) =>
    nebuly.startConversation({ end_user: `user-${c}`, tags: { plan: 'pro' } }),
  );
  for (let t = 0; t < TURNS; t += 1) {
    for (const [c, conversation] of conversations.entries()) record(conversation, interactionData(c * TURNS + t));
  }
  // The open conversations stay open: a flush only waits for their interactions to be stored.
  await nebuly.flush();
  const heapBytes = collectGarbage() - before;

  const outcomes = await Promise.all(conversations.map((conversation) => conversation.end()));
  if (outcomes.some((outcome) => outcome.status !== 'delivered')) throw new Error('a buffered conversation was not delivered');
  await nebuly.shutdown();
  if (errors.length > 0) throw new Error(`the recorder reported: ${errors[0]?.message}`);

  return {
    heapBytesPerJsonByte: heapBytes / jsonBytes,
    interactions: CONVERSATIONS * TURNS,
    heapBytes,
    jsonBytes,
  };
}

const OPEN = 10_000;

/**
 * Heap held by an open conversation with nothing recorded in it, on average over 10,000:
 * what an application pays to hold each of its open conversations, and what the first
 * scavenges of a shutdown or idle wave copy. Run late, apart from the recording benchmark
 * (it makes and shuts down a client of its own).
 *
 * @example
 * ```ts
 * const bytes = await benchOpenConversation(sdk);
 * ```
 */
export async function benchOpenConversation(sdk: Sdk): Promise<number> {
  const many = new sdk.NebulyClient({ apiKey: 'bench-key', baseUrl: 'http://127.0.0.1:9', recorder: { idleTimeoutMs: 0, maxOpenConversations: OPEN } });
  const users = Array.from({ length: OPEN }, (_, i) => `user-${i}`);
  many.startConversation({ end_user: 'warm' });
  const before = collectGarbage();
  for (const user of users) many.startConversation({ end_user: user });
  const bytes = Math.round((collectGarbage() - before) / OPEN);
  await many.shutdown();
  return bytes;
}
