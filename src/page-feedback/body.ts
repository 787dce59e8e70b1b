import { checkFeedbackAction, Found } from '../schemas/plain-checks.js';
import { FEEDBACK_SLUGS } from '../schemas/wire-fields.js';

/** What the page posts: its token, and the feedback action. */
export interface FeedbackBody {
  token: string;
  slug: (typeof FEEDBACK_SLUGS)[number];
  text?: string | undefined;
  value?: number | undefined;
}

/** The longest `text` taken, in characters: a comment or an edit, not a document. */
export const MAX_TEXT_LENGTH = 4000;

const FIELDS = new Set(['token', 'slug', 'text', 'value']);

/** A field name a message may quote: short and plain, so never a token pasted as a name. */
const QUOTABLE = /^[A-Za-z_]{1,32}$/;

/**
 * The body checked, or the problem with it, naming the field: what the 400 says. The
 * token is not verified here, only seen to be a string; no message repeats a value.
 *
 * @example
 * ```ts
 * const body = readBody(JSON.parse(text));
 * if ('problem' in body) return badRequest(body.problem);
 * ```
 */
export function readBody(parsed: unknown): FeedbackBody | { problem: string } {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'the body must be a JSON object' };
  const body = parsed as Record<string, unknown>;
  for (const name of Object.keys(body)) {
    if (!FIELDS.has(name)) {
      return { problem: QUOTABLE.test(name) ? `\`${name}\` is not a field; the fields are token, slug, text and value` : 'the body has an unknown field; the fields are token, slug, text and value' };
    }
  }
  const { token, slug, text, value } = body;
  if (typeof token !== 'string' || token === '') return { problem: '`token` must be the feedback token given with the answer' };
  // The spec's rules, as `nebuly.feedback()` checks them; the messages here quote no value.
  const found = new Found(body);
  checkFeedbackAction({ slug, text, value }, [], found);
  const [issue] = found.issues;
  if (issue?.path[0] === 'slug') return { problem: `\`slug\` must be one of ${FEEDBACK_SLUGS.join(', ')}` };
  if (issue?.path[0] === 'value' && issue.code === 'custom') return { problem: "`value` is only used with slug 'rating'" };
  if (issue?.path[0] === 'text' || (typeof text === 'string' && text.length > MAX_TEXT_LENGTH)) {
    return { problem: `\`text\` must be a string of at most ${MAX_TEXT_LENGTH} characters` };
  }
  if (value !== undefined && !Number.isInteger(value)) return { problem: '`value` must be a whole number' };
  return { token, slug: slug as FeedbackBody['slug'], text: text as string | undefined, value: value as number | undefined };
}
