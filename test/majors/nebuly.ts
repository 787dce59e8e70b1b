/**
 * A client wired to an in-memory reference server, imported by the package's names: the
 * tests here run against the source (vitest's aliases) and are type-checked against the
 * built declarations with the majors' own typings, as a user on ai 7 / openai 7 sees them.
 */
import { NebulyClient, type NebulyError } from 'nebuly-client';
import { createReferenceHandler } from 'nebuly-client/reference-server';

type Conversation = { end_user: string; interactions: Record<string, unknown>[] };

/** The client, the errors it reported, and the conversations the server received. */
export function nebulyWithReference() {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    onError: (error) => errors.push(error),
  });
  const sent = (): Conversation[] =>
    reference.requests
      .all({ path: '/event-ingestion/api/v2/events/trace_conversation' })
      .map((request) => (JSON.parse(request.body) as { conversation: Conversation }).conversation);
  return { nebuly, errors, sent };
}
