import { NebulyClient, type ConversationStore, type NebulyError, type RecorderOptions } from '../../src/index.js';
import { createReferenceHandler } from '../../src/reference-server/index.js';

export const SECRET = 'feedback-secret-CANARY-0123456789abcdef';
export const CONVERSATIONS = '/event-ingestion/api/v2/events/trace_conversation';
export const INTERACTIONS = '/event-ingestion/api/v3/events/trace_interaction';
export const FEEDBACK = '/event-ingestion/api/v1/events/feedback';
/** Where the handler is mounted in these tests; the page's own origin is this one's. */
export const ROUTE = 'http://app.test/api/feedback';

/** The feedback actions of each interaction sent, in order, across every conversation sent. */
export type SentActions = unknown[][];

/**
 * `count` instances of a backend sharing a store (none: each its own memory store), each
 * with the feedback secret, sending to one reference server.
 */
export function instances(count: number, options: { store?: ConversationStore; recorder?: RecorderOptions; origins?: string[] } = {}) {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const clients = Array.from(
    { length: count },
    () =>
      new NebulyClient({
        apiKey: 'test-key',
        baseUrl: 'http://nebuly.reference.test',
        fetch: (input, init) => reference.fetch(new Request(input, init)),
        onError: (error) => errors.push(error),
        feedbackSecret: SECRET,
        feedbackOrigins: options.origins ?? [],
        recorder: { sweepIntervalMs: 0, ...(options.store === undefined ? {} : { store: options.store }), ...options.recorder },
      }),
  );
  const bodies = (path: string) => reference.requests.all({ path }).map((request) => JSON.parse(request.body) as Record<string, unknown>);
  /** The feedback actions of every interaction sent in conversations. */
  const conversationActions = () =>
    bodies(CONVERSATIONS).flatMap((body) =>
      (body as { conversation: { interactions: { feedback_actions?: unknown[] }[] } }).conversation.interactions.map((interaction) => interaction.feedback_actions ?? []),
    );
  return { clients, errors, reference, bodies, conversationActions };
}

/** A POST of `body` (an object as JSON, or text as is) to the route, as a page would send it. */
export function post(body: unknown, init: { origin?: string | null; url?: string } = {}): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.origin !== null) headers.origin = init.origin ?? 'http://app.test';
  return new Request(init.url ?? ROUTE, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}
