/**
 * `nebuly-client/browser`: what a web page needs to send its user's feedback to your
 * server's `nebuly.handleFeedback()` route, with the token your server gave with the
 * answer. No API key, nothing of Node, a few hundred bytes.
 *
 * @example
 * ```ts
 * import { captureCopy, sendFeedback } from 'nebuly-client/browser';
 *
 * thumbsUp.onclick = () => sendFeedback({ url: '/api/feedback', token, slug: 'thumbs_up' });
 * const stop = captureCopy(answerElement, { url: '/api/feedback', token });
 * ```
 * @module nebuly-client/browser
 */
import type { FeedbackSlug } from '../types/feedback.js';

export type { FeedbackSlug };

/** The longest `text` sent: what the route takes (longer copies are cut). */
const MAX_TEXT_LENGTH = 4000;

/**
 * Parameters of {@link sendFeedback}.
 *
 * @example
 * ```ts
 * const feedback: PageFeedback = { url: '/api/feedback', token, slug: 'rating', value: 4 };
 * ```
 */
export interface PageFeedback {
  /** The route that calls `nebuly.handleFeedback(request)`: a path of this page's site, or an allowed origin's URL. */
  url: string;
  /** The token your server gave with the answer (`turn.feedbackToken()`). */
  token: string;
  slug: FeedbackSlug;
  /** A comment, the edited text, what was copied. */
  text?: string | undefined;
  /** The score; only with `slug: 'rating'`. */
  value?: number | undefined;
}

/**
 * Posts the user's feedback on an answer to your feedback route. Resolves `true` once the
 * route accepted it (204), `false` for anything else (refused, offline, bad input):
 * feedback is never worth an error in the page, so it never throws or rejects. Sent with
 * `keepalive`, so it is delivered even when the page is closing.
 *
 * @example
 * ```ts
 * button.addEventListener('click', () => void sendFeedback({ url: '/api/feedback', token, slug: 'thumbs_up' }));
 * ```
 */
export async function sendFeedback(feedback: PageFeedback): Promise<boolean> {
  try {
    const { url, token, slug, text, value } = feedback;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, slug, text: text?.slice(0, MAX_TEXT_LENGTH), value }),
      keepalive: true,
      credentials: 'omit',
    });
    return response.status === 204;
  } catch {
    return false;
  }
}

/** The part of the current selection inside `element`, as text; `''` when none of it is. */
function selectedTextIn(element: Element): string {
  const selection = element.ownerDocument.getSelection();
  let text = '';
  for (let index = 0; selection !== null && index < selection.rangeCount; index += 1) {
    const range = selection.getRangeAt(index).cloneRange();
    if (!range.intersectsNode(element)) continue;
    if (!element.contains(range.startContainer)) range.setStart(element, 0);
    if (!element.contains(range.endContainer)) range.setEnd(element, element.childNodes.length);
    text += range.toString();
  }
  return text;
}

/**
 * Sends `copy_output` with the copied text whenever the user copies from `element` (the
 * answer): by keyboard, menu or script, a selection wholly or partly inside it. Returns
 * the function that stops it. Never throws.
 *
 * @example
 * ```ts
 * const stop = captureCopy(document.querySelector('#answer')!, { url: '/api/feedback', token });
 * // when the answer is removed:
 * stop();
 * ```
 */
export function captureCopy(element: Element, options: { url: string; token: string }): () => void {
  try {
    const { url, token } = options;
    const document = element.ownerDocument;
    const listener = (): void => {
      try {
        const text = selectedTextIn(element);
        if (text !== '') void sendFeedback({ url, token, slug: 'copy_output', text });
      } catch {
        // A page whose selection cannot be read loses this copy, not its own copy.
      }
    };
    // On the document, captured: a copy is dispatched at the focused element, which may
    // be outside `element` while the selection is inside it.
    document.addEventListener('copy', listener, true);
    return () => document.removeEventListener('copy', listener, true);
  } catch {
    return () => undefined;
  }
}
