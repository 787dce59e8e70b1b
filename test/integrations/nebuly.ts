/**
 * Imported by the package's names, so that the majors' tests (test/majors/nebuly.ts) share
 * it: there the names are type-checked against the built declarations.
 */
import { NebulyClient, type NebulyError } from 'nebuly-client';
import { createReferenceHandler } from 'nebuly-client/reference-server';

/** The bulk endpoint's path, where recorded conversations go. */
export const CONVERSATIONS_PATH = '/event-ingestion/api/v2/events/trace_conversation';

/**
 * A NebulyClient wired to an in-memory reference server (no socket), with the errors
 * it reported collected and the conversations the server received, as sent.
 */
export function nebulyWithReference() {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    onError: (error) => errors.push(error),
  });
  return {
    nebuly,
    reference,
    errors,
    /** The conversations the server received, as parsed wire bodies, in arrival order. */
    sent(): { end_user: string; interactions: Record<string, unknown>[] }[] {
      return reference.requests
        .all({ path: CONVERSATIONS_PATH })
        .map((request) => (JSON.parse(request.body) as { conversation: { end_user: string; interactions: Record<string, unknown>[] } }).conversation);
    },
  };
}
