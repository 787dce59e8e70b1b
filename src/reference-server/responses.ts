import type { Issue } from '../utils/issues.js';
import type { UnlinkedFeedback } from './feedback-link.js';

/** One entry of a FastAPI validation error: where, what, and a machine-readable kind. */
export interface ValidationDetail {
  /** `'body'` then the keys and indices of the field: `['body', 'interaction', 'end_user']`. */
  loc: (string | number)[];
  /** What is wrong, in words (`is required`, `must be one of "system", "user", …`). */
  msg: string;
  /** `'missing'` for an absent required field, else zod's issue code (`invalid_type`, `too_small`, …). */
  type: string;
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** An error the way FastAPI responds with one: `{"detail": "text"}`. */
export function detail(status: number, text: string, headers: Record<string, string> = {}): Response {
  return json({ detail: text }, status, headers);
}

function isAbsent(root: unknown, path: readonly (string | number)[]): boolean {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return true;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value === undefined;
}

// A type or union mismatch on a field that is not there at all is FastAPI's `missing`;
// other issues on an absent field (`tag` is required when kind is 'tag') keep their words.
const MISSING_CODES = new Set(['invalid_type', 'invalid_union']);

/**
 * 422 with FastAPI's validation body, one entry per issue; `input` is the body that was
 * validated; `where` names the part of the request an issue is in (`body` unless told:
 * a GET's params are in its `query` or `path`).
 */
export function validationError(issues: readonly Issue[], input: unknown, where?: (issue: Issue) => string): Response {
  const entries: ValidationDetail[] = issues.map((issue) => {
    const missing = MISSING_CODES.has(issue.code) && isAbsent(input, issue.path);
    return {
      loc: [where === undefined ? 'body' : where(issue), ...issue.path],
      msg: missing ? 'is required' : issue.message,
      type: missing ? 'missing' : issue.code,
    };
  });
  return json({ detail: entries }, 422);
}

/**
 * 422 for a late feedback that matches no stored interaction, in FastAPI's validation
 * shape so that the client lists it like any other refusal of the body.
 */
export function unlinkedFeedback(unlinked: UnlinkedFeedback): Response {
  const entry: ValidationDetail =
    unlinked.reason === 'no_interaction'
      ? {
          loc: ['body', 'metadata'],
          msg: 'no stored interaction has this end_user, input and output: send the interaction first, or put the feedback in its feedback_actions',
          type: 'no_interaction',
        }
      : {
          loc: ['body', 'metadata', 'timestamp'],
          msg: `must be after the interaction's time_end (${unlinked.latestTimeEnd})`,
          type: 'not_after_time_end',
        };
  return json({ detail: [entry] }, 422);
}
