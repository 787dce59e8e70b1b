import type { MaskContext } from '../core/privacy-options.js';
import { MAX_JSON_DEPTH } from '../schemas/plain-checks.js';
import { type ContentMap, kindOf, mapContent } from './content.js';
import { maskText } from './pii/scan.js';

/** What stands in for a part nested past {@link MAX_JSON_DEPTH} (or in a cycle): never scanned, never sent. */
const TOO_DEEP = '[TOO DEEP]';

/** Every string inside a content part, at any depth, except the part's `type`. */
function maskJson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => maskJson(item, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    masked[key] = depth === 1 && key === 'type' ? item : maskJson(item, depth + 1);
  }
  return masked;
}

const PII: ContentMap = {
  text: maskText,
  parts: (parts) => parts.map((part) => maskJson(part, 1)),
};

/**
 * A ready `mask`: a copy of the body with, in every content field (inputs, outputs,
 * messages and their content parts, retrieval inputs and outputs, feedback text, tag
 * values), each e-mail address replaced by `[EMAIL]`, phone number by `[PHONE]`, payment
 * card number (Luhn-checked) by `[CARD]`, IBAN (mod-97-checked) by `[IBAN]`, and API key
 * or token by `[SECRET]` (`Bearer [SECRET]` keeps its word). docs/privacy.md defines each.
 * Linear in the size of the body, whatever its content; deterministic, so that the same
 * text always masks the same way. Called without a context, it tells the kind of body by
 * its keys.
 *
 * @example
 * ```ts
 * import { maskPII, NebulyClient } from 'nebuly-client';
 *
 * const nebuly = new NebulyClient({ mask: maskPII });
 * // or with a mask of your own on top:
 * const custom = new NebulyClient({ mask: (payload, context) => dropNames(maskPII(payload, context)) });
 * ```
 */
export function maskPII<P>(payload: P, context?: MaskContext): P {
  const kind = context?.kind ?? kindOf(payload);
  return kind === undefined ? payload : mapContent(kind, payload, PII);
}
