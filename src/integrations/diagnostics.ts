/**
 * Capture diagnostics: what makes recorded data silently poorer (no token counts), said
 * once per kind and client, at `info`, through the client's log.
 */
import { clientLog, type NebulyClient } from '../client.js';

/**
 * What a diagnostic is about.
 * @example
 * ```ts
 * const kind: DiagnosticKind = 'stream_without_usage';
 * ```
 */
export type DiagnosticKind = 'stream_without_usage' | 'call_without_tokens';

const MESSAGES: Readonly<Record<DiagnosticKind, string>> = {
  stream_without_usage:
    'a streamed model call reported no token usage, so its step has no token counts (OpenAI sends usage on a streamed chat completion only when asked: observeOpenAI(client, target, { includeUsage: true }))',
  call_without_tokens: 'a model call reported no token counts (the provider or framework gave none), so its step has none',
};

const said = new WeakMap<NebulyClient, Set<DiagnosticKind>>();

/**
 * Logs a diagnostic at `info`, the first time `kind` happens for `client`. Never throws.
 * @example
 * ```ts
 * diagnose(nebuly, 'stream_without_usage');
 * ```
 */
export function diagnose(client: NebulyClient | undefined, kind: DiagnosticKind): void {
  if (client === undefined) return;
  let kinds = said.get(client);
  if (kinds === undefined) {
    kinds = new Set();
    said.set(client, kinds);
  }
  if (kinds.has(kind)) return;
  kinds.add(kind);
  clientLog(client).info(`nebuly-client integration: ${MESSAGES[kind]}; said once`, { kind });
}
