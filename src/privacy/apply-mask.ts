import * as z from 'zod/mini';
import { ENDPOINTS, type Endpoint } from '../core/endpoints.js';
import type { IngestPayloads, Mask, PayloadKind } from '../core/privacy-options.js';
import { toIssues } from '../schemas/issues.js';
import type { Issue } from '../utils/issues.js';
import { isThenable } from '../utils/thenable.js';
import { type ContentMap, mapContent } from './content.js';
import { MASK_FAILED, MaskError, type MaskErrorCode } from './errors.js';

const PLACEHOLDER: ContentMap = { text: () => MASK_FAILED, parts: () => MASK_FAILED };

/**
 * The endpoint of each kind of body: its schema checks what a mask returns, and the
 * typed client's calls to it are masked (see {@link maskingFilter}).
 */
export const MASKED_ENDPOINTS: { readonly [K in PayloadKind]: Endpoint } = {
  interaction: ENDPOINTS.sendInteraction,
  conversation: ENDPOINTS.sendConversation,
  feedback: ENDPOINTS.sendFeedback,
  tags: ENDPOINTS.addTags,
};

const KIND_OF_ENDPOINT = new Map<Endpoint, PayloadKind>(
  (Object.keys(MASKED_ENDPOINTS) as PayloadKind[]).map((kind) => [MASKED_ENDPOINTS[kind], kind]),
);

/**
 * The kind of body an endpoint takes, when its bodies are masked.
 *
 * @example
 * ```ts
 * maskedKindOf(ENDPOINTS.sendConversation); // 'conversation'
 * maskedKindOf(ENDPOINTS.insertEligibleUsers); // undefined
 * ```
 */
export function maskedKindOf(endpoint: Endpoint): PayloadKind | undefined {
  return KIND_OF_ENDPOINT.get(endpoint);
}

/**
 * What {@link applyMask} gives back: the body to send, and, when the mask failed, the
 * error to report. `body` is `undefined` only when the body was withheld.
 *
 * @example
 * ```ts
 * const { body, error } = applyMask(mask, 'conversation', payload);
 * if (error !== undefined) onError(error);
 * if (body !== undefined) queue(JSON.stringify(body));
 * ```
 */
export interface MaskOutcome<P> {
  body: P | undefined;
  error: MaskError | undefined;
}

/** What a thrown value may be called in an error: its class's name, never its message. */
function nameOf(thrown: unknown): string {
  if (thrown instanceof Error) {
    const { name } = thrown;
    return /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? name : 'an Error';
  }
  return thrown === null ? 'null' : typeof thrown;
}

/** What a mask returned, when it is not a body at all; `undefined` when it may be one. */
function notABody(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (Array.isArray(value)) return 'an array';
  try {
    if (isThenable(value)) return 'a Promise (a mask must be synchronous)';
  } catch {
    return 'an object that could not be read';
  }
  return undefined;
}

/**
 * Runs `mask` once on a wire body of `kind`, fail closed. The body it returns is
 * validated with the kind's wire schema and sent as validated (unknown keys dropped).
 * When the mask throws, or returns something other than a valid body, nothing of the
 * body goes out unmasked: the body is sent with every content field replaced by
 * {@link MASK_FAILED}, or, when even that is not valid (the mask broke the body it was
 * given before failing), withheld; `error` says which, without any content.
 *
 * The recorder calls it on each body it sends or keeps; the typed client's calls go
 * through {@link maskingFilter}.
 *
 * @example
 * ```ts
 * const { body, error } = applyMask(options.mask, 'conversation', payload);
 * ```
 */
export function applyMask<K extends PayloadKind>(mask: Mask, kind: K, payload: IngestPayloads[K]): MaskOutcome<IngestPayloads[K]> {
  const schema = MASKED_ENDPOINTS[kind].params!;
  let returned: unknown;
  try {
    returned = mask(payload, { kind });
  } catch (thrown) {
    return failClosed(kind, payload, 'mask_threw', `threw ${nameOf(thrown)}`);
  }
  const wrong = notABody(returned);
  if (wrong !== undefined) return failClosed(kind, payload, 'mask_invalid', `returned ${wrong}`);
  let result: ReturnType<typeof z.safeParse>;
  try {
    result = z.safeParse(schema, returned);
  } catch {
    return failClosed(kind, payload, 'mask_invalid', 'returned a body that could not be read');
  }
  if (!result.success) {
    return failClosed(kind, payload, 'mask_invalid', 'returned an invalid body', toIssues(result.error.issues, returned));
  }
  return { body: result.data as IngestPayloads[K], error: undefined };
}

/** The body with its content replaced, if that is still a valid body, and the error to report. */
function failClosed<K extends PayloadKind>(
  kind: K,
  payload: IngestPayloads[K],
  code: MaskErrorCode,
  what: string,
  issues?: readonly Issue[],
): MaskOutcome<IngestPayloads[K]> {
  let body: IngestPayloads[K] | undefined;
  try {
    const result = z.safeParse(MASKED_ENDPOINTS[kind].params!, mapContent(kind, payload, PLACEHOLDER));
    body = result.success ? (result.data as IngestPayloads[K]) : undefined;
  } catch {
    body = undefined;
  }
  return { body, error: new MaskError(code, kind, body === undefined ? 'withheld' : 'placeholder', what, issues) };
}
