/**
 * The dead-letter file format, written by `writeDeadLetters` (nebuly-client/node) and
 * read by `nebuly replay`: JSON Lines, one record a line, each record
 *
 * ```json
 * {"nebuly_dead_letter":1,"idempotency_key":"…","conversation_id":"…","body":{…the request body…}}
 * ```
 *
 * Each record is written as `\n` + line + `\n` in one `write(2)`: it starts on a fresh
 * line even when the record before it was cut by a crash, so a reader skips the cut
 * line (it does not parse) and finds the next record whole. Blank lines mean nothing.
 * Lines of the first format (the bare request body, `{"conversation":…}`) still read.
 */

/** The marker and version of a record line. */
export const DEAD_LETTER_MARKER = 'nebuly_dead_letter';

/** What a record holds. */
export interface DeadLetter {
  /** The key its sends carried; resend with it. `undefined` for a line of the first format, or a conversation never sent. */
  idempotencyKey: string | undefined;
  /** The conversation's id, when known. */
  conversationId: string | undefined;
  /** The request body. */
  body: unknown;
}

/** A line that is not a record: cut by a crash, edited by hand, or not JSON at all. */
export interface UnreadableLine {
  unreadable: string;
}

/**
 * The bytes of one record, framed to start and end on a fresh line. `payload` is the
 * request body as JSON text, embedded as is when it is on one line (the recorder's
 * always is), re-serialized when it is not. Throws a `SyntaxError` when it is not JSON.
 *
 * @example
 * ```ts
 * encodeDeadLetter({ idempotencyKey: 'k', conversationId: 'c', payload: '{"conversation":{}}' });
 * // '\n{"nebuly_dead_letter":1,"idempotency_key":"k","conversation_id":"c","body":{"conversation":{}}}\n'
 * ```
 */
export function encodeDeadLetter(record: { idempotencyKey?: string | undefined; conversationId?: string | undefined; payload: string }): string {
  const body = /[\r\n]/.test(record.payload) ? JSON.stringify(JSON.parse(record.payload)) : record.payload;
  const key = record.idempotencyKey === undefined ? '' : `,"idempotency_key":${JSON.stringify(record.idempotencyKey)}`;
  const id = record.conversationId === undefined ? '' : `,"conversation_id":${JSON.stringify(record.conversationId)}`;
  return `\n{"${DEAD_LETTER_MARKER}":1${key}${id},"body":${body}}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one line: a record, a request body of the first format, or unreadable (with why).
 *
 * @example
 * ```ts
 * const read = decodeDeadLetter(line);
 * if ('unreadable' in read) console.log(read.unreadable); else send(read.body, read.idempotencyKey);
 * ```
 */
export function decodeDeadLetter(line: string): DeadLetter | UnreadableLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { unreadable: `not JSON (${(error as Error).message}): a line cut short, or not a dead letter` };
  }
  if (!isObject(value)) return { unreadable: 'not a JSON object' };
  if (!Object.hasOwn(value, DEAD_LETTER_MARKER)) return { idempotencyKey: undefined, conversationId: undefined, body: value };
  const { idempotency_key: key, conversation_id: id, body } = value;
  if (value[DEAD_LETTER_MARKER] !== 1) return { unreadable: `a record of an unknown version (${JSON.stringify(value[DEAD_LETTER_MARKER])})` };
  if (!isObject(body)) return { unreadable: 'a record without its body' };
  return {
    idempotencyKey: typeof key === 'string' && key !== '' ? key : undefined,
    conversationId: typeof id === 'string' ? id : undefined,
    body,
  };
}
