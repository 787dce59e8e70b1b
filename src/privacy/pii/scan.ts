import type { Span } from './chars.js';
import { findEmails } from './emails.js';
import { findIbans } from './iban.js';
import { findNumbers } from './numbers.js';
import { findBearerTokens, findSecrets } from './secrets.js';

const HAS_DIGIT = /[0-9]/;

/**
 * Every span of personal data or secret in `text`, in order, none overlapping: each
 * finder's spans (each list in order), merged; where two overlap, the one that starts
 * first wins, then the longer, then the earlier finder (bearer tokens, e-mails, IBANs,
 * numbers, other secrets). Linear: five linear passes and a merge of sorted lists.
 *
 * @example
 * ```ts
 * findPii('mail a@b.io or call +44 20 7946 0958'); // an EMAIL span, then a PHONE span
 * ```
 */
export function findPii(text: string): Span[] {
  // Numbers and IBANs have digits: a native, linear test spares text without any both scans.
  const digits = HAS_DIGIT.test(text);
  const lists = [
    findBearerTokens(text),
    findEmails(text),
    digits ? findIbans(text) : [],
    digits ? findNumbers(text) : [],
    findSecrets(text),
  ];
  const heads = lists.map(() => 0);
  const merged: Span[] = [];
  let covered = 0;
  for (;;) {
    let best = -1;
    for (let list = 0; list < lists.length; list += 1) {
      const span = lists[list]![heads[list]!];
      if (span === undefined) continue;
      const current = best === -1 ? undefined : lists[best]![heads[best]!]!;
      if (current === undefined || span.start < current.start || (span.start === current.start && span.end > current.end)) {
        best = list;
      }
    }
    if (best === -1) return merged;
    const span = lists[best]![heads[best]!]!;
    heads[best] = heads[best]! + 1;
    if (span.start >= covered) {
      merged.push(span);
      covered = span.end;
    }
  }
}

/**
 * `text` with every span of {@link findPii} replaced by its label in brackets
 * (`[EMAIL]`, `[PHONE]`, `[CARD]`, `[IBAN]`, `[SECRET]`); the same string when there is none.
 *
 * @example
 * ```ts
 * maskText('card 4111 1111 1111 1111'); // 'card [CARD]'
 * ```
 */
export function maskText(text: string): string {
  const spans = findPii(text);
  if (spans.length === 0) return text;
  let masked = '';
  let from = 0;
  for (const { start, end, label } of spans) {
    masked += `${text.slice(from, start)}[${label}]`;
    from = end;
  }
  return masked + text.slice(from);
}
