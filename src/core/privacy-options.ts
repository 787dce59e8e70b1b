// The privacy options are declared here, in core, beside the client's others: the
// client's options (options.ts) hold them, and src/privacy/ applies them, from above.
import type { Resolved } from './option-checks.js';
import { func, number, valueOf } from './option-kinds.js';
import type { AddTagsBody, SendConversationBody, SendFeedbackBody, SendInteractionBody } from '../types/index.js';

/**
 * The bodies a mask sees, by kind: each as it goes on the wire (validated, times as ISO
 * strings).
 *
 * @example
 * ```ts
 * const body: IngestPayloads['conversation'] = { conversation: { end_user: 'u-1', interactions: [] } };
 * ```
 */
export interface IngestPayloads {
  /** `nebuly.interactions.send`, and the recorder's per-interaction sends. */
  interaction: SendInteractionBody;
  /** `nebuly.conversations.send`, and the recorder's bulk sends. */
  conversation: SendConversationBody;
  /** `nebuly.interactions.sendFeedback`, and `nebuly.feedback()` for an interaction already sent. */
  feedback: SendFeedbackBody;
  /** `nebuly.interactions.addTags`, and `nebuly.tag()` for an interaction already sent. */
  tags: AddTagsBody;
}

/**
 * Which kind of body a mask is given.
 *
 * @example
 * ```ts
 * const kind: PayloadKind = 'conversation';
 * ```
 */
export type PayloadKind = keyof IngestPayloads;

/**
 * Any body a mask is given.
 *
 * @example
 * ```ts
 * const mask = (payload: IngestPayload) => payload;
 * ```
 */
export type IngestPayload = IngestPayloads[PayloadKind];

/**
 * What a mask is told besides the body.
 *
 * @example
 * ```ts
 * const mask: Mask = (payload, { kind }) => (kind === 'conversation' ? maskPII(payload) : payload);
 * ```
 */
export interface MaskContext {
  /** The kind of body. */
  kind: PayloadKind;
}

/**
 * A function from a wire body to the wire body to send in its place, called once per
 * body that leaves the process or is kept (docs/privacy.md). It may return a new object
 * or change the one it is given; it must keep the body valid (a string stays a string).
 *
 * @example
 * ```ts
 * const nebuly = new NebulyClient({ mask: (payload, context) => redactNames(maskPII(payload, context)) });
 * ```
 */
export type Mask = (payload: IngestPayload, context: MaskContext) => IngestPayload;

/**
 * The sampling key used when `sampleKey` is not given. Every process with the same key
 * keeps the same users; a key of your own reshuffles which users are kept.
 *
 * @example
 * ```ts
 * new NebulyClient({ sampleRate: 0.1, sampleKey: DEFAULT_SAMPLE_KEY }); // the same as leaving it out
 * ```
 */
export const DEFAULT_SAMPLE_KEY = 'nebuly-sample-v1';

/**
 * The privacy options (`mask`, `sampleRate`, `sampleKey`), a part of the client's
 * table of options: checked once, at construction, with the others.
 *
 * @example
 * ```ts
 * const CLIENT_OPTIONS = { ...PRIVACY_OPTIONS, apiKey: text() };
 * ```
 */
export const PRIVACY_OPTIONS = {
  mask: func<Mask>(),
  sampleRate: number({ min: 0, max: 1, hint: 'the share of end users kept' }).or(1),
  // The key is never quoted: it is a secret of sorts, and may have been pasted from one.
  sampleKey: valueOf<string>('a non-empty string', (value) => typeof value === 'string' && value !== '').or(DEFAULT_SAMPLE_KEY),
} as const;

/**
 * The privacy options with their defaults filled in.
 *
 * @example
 * ```ts
 * const sampler = createSampler({ sampleRate: 0.5, sampleKey: DEFAULT_SAMPLE_KEY });
 * ```
 */
export type ResolvedPrivacyOptions = Resolved<typeof PRIVACY_OPTIONS>;
