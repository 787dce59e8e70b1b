/**
 * What makes recorded data silently poorer, told once per kind and client through the
 * client's logger at `info`: not an error (nothing failed), but worth knowing once.
 */
import { clientParts, type NebulyClient } from '../client.js';

/**
 * The framework majors each integration is tested with (docs/integrations.md, "Versions").
 * A version outside them is told once: it may work, but nobody has seen it work. Each
 * framework here is one whose version an integration can read from what it is given (the
 * client, the call, the run's metadata); the Agents SDK gives its trace processors no
 * version, so it has no entry.
 *
 * @example
 * ```ts
 * TESTED_MAJORS.ai; // [6, 7]
 * ```
 */
export const TESTED_MAJORS = {
  openai: [6, 7],
  '@anthropic-ai/sdk': [1],
  ai: [6, 7],
  '@langchain/core': [1],
  '@google/genai': [2, 3],
  '@aws-sdk/client-bedrock-runtime': [3],
} as const satisfies Record<string, readonly number[]>;

/**
 * A framework of {@link TESTED_MAJORS}.
 *
 * @example
 * ```ts
 * const framework: TestedFramework = 'openai';
 * ```
 */
export type TestedFramework = keyof typeof TESTED_MAJORS;

/**
 * The kinds of diagnostic, each told once per client and subject.
 *
 * @example
 * ```ts
 * const kind: DiagnosticKind = 'content_not_captured';
 * ```
 */
export type DiagnosticKind =
  | 'stream_without_usage'
  | 'call_without_tokens'
  | 'content_not_captured'
  | 'untested_version'
  | 'no_end_user';

const told = new WeakMap<NebulyClient, Set<string>>();

/**
 * @internal Tells `message` through `nebuly`'s logger at `info`, the first time this
 * `kind` (and `subject`: the framework, the instrumentation) is seen for this client.
 * Never throws.
 * @example
 * ```ts
 * diagnoseOnce(nebuly, 'content_not_captured', 'ai', 'nebuly-client/otel: spans of ai carry no messages …');
 * ```
 */
export function diagnoseOnce(nebuly: NebulyClient, kind: DiagnosticKind, subject: string, message: string): void {
  try {
    let seen = told.get(nebuly);
    if (seen === undefined) {
      seen = new Set();
      told.set(nebuly, seen);
    }
    const key = `${kind}\u0000${subject}`;
    if (seen.has(key)) return;
    seen.add(key);
    clientParts(nebuly)?.log.info(message, subject === '' ? { kind } : { kind, subject });
  } catch {
    // A diagnostic is never worth a fault in the caller's code.
  }
}

/**
 * @internal Whether `version` (`'7.57.0'`) is of a major the integration of `framework`
 * is tested with; when not, tells it once per client (`untested_version`). A version that
 * is not known (`undefined`), or a client that is not (a target that names none), tells
 * nothing. Cheap on a tested version (no allocation): it runs on every observed call.
 * @example
 * ```ts
 * checkTestedVersion(nebuly, 'ai', event.aiVersion);
 * ```
 */
export function checkTestedVersion(nebuly: NebulyClient | undefined, framework: TestedFramework, version: string | undefined): void {
  if (nebuly === undefined || version === undefined) return;
  const major = Number.parseInt(version, 10);
  const tested: readonly number[] = TESTED_MAJORS[framework];
  if (Number.isInteger(major) && tested.includes(major)) return;
  diagnoseOnce(
    nebuly,
    'untested_version',
    framework,
    `nebuly-client: ${framework} ${version} is a version this integration was not tested with (tested: ${tested.map((known) => `${known}.x`).join(', ')}); ` +
      'it may record less or nothing: see the Versions table of docs/integrations.md.',
  );
}

/** What the integrations' own diagnostics say: the model calls that leave a step poorer. */
const CALL_MESSAGES = {
  stream_without_usage:
    'a streamed model call reported no token usage, so its step has no token counts (OpenAI sends usage on a streamed chat completion only when asked: observeOpenAI(client, target, { includeUsage: true }))',
  call_without_tokens: 'a model call reported no token counts (the provider or framework gave none), so its step has none',
} as const;

/**
 * @internal Tells, once per client, a model call that makes its step poorer; `client`
 * `undefined` (a target that names none) tells nothing. Never throws.
 * @example
 * ```ts
 * diagnose(nebuly, 'stream_without_usage');
 * ```
 */
export function diagnose(client: NebulyClient | undefined, kind: keyof typeof CALL_MESSAGES): void {
  if (client === undefined) return;
  diagnoseOnce(client, kind, '', `nebuly-client integration: ${CALL_MESSAGES[kind]}; said once`);
}
