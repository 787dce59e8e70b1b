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
 * it reported, the lines it logged at `info` (the capture diagnostics), and the
 * conversations the server received, as sent.
 */
export function nebulyWithReference() {
  const reference = createReferenceHandler({ apiKeys: { 'test-key': 'project' } });
  const errors: NebulyError[] = [];
  const info: string[] = [];
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://nebuly.reference.test',
    fetch: (input, init) => reference.fetch(new Request(input, init)),
    onError: (error) => errors.push(error),
    logLevel: 'info',
    // Warnings and errors as the default logger writes them; info kept for the tests.
    logger: { error: console.error, warn: console.warn, debug: () => {}, info: (message) => info.push(message) },
  });
  return {
    nebuly,
    reference,
    errors,
    info,
    /** The conversations the server received, as parsed wire bodies, in arrival order. */
    sent(): { end_user: string; interactions: Record<string, unknown>[] }[] {
      return reference.requests
        .all({ path: CONVERSATIONS_PATH })
        .map((request) => (JSON.parse(request.body) as { conversation: { end_user: string; interactions: Record<string, unknown>[] } }).conversation);
    },
  };
}
