import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { NebulyError } from '../core/errors.js';
import type { UndeliveredConversation } from '../recorder/errors.js';
import { encodeDeadLetter } from '../utils/dead-letter-line.js';

/** An `onError` handler that keeps undelivered conversations in a JSON Lines file. */
export interface DeadLetterHandler {
  (error: NebulyError): void;
  /** Resolves once every conversation handed to this file so far is written (or reported as not written). */
  flush(): Promise<void>;
}

/** Options of {@link writeDeadLetters}. */
export interface WriteDeadLettersOptions {
  /**
   * Receives the errors that carry no conversation (a `RecordingError`, say).
   * @default a one-line `console.warn`, as the client's default `onError`
   */
  onOtherError?: ((error: NebulyError) => void) | undefined;
  /**
   * A conversation could not be written to the file (disk full, no permission).
   * @default a one-line `console.error` naming the conversation and the reason
   */
  onWriteError?: ((error: Error, conversationId: string) => void) | undefined;
}

/** The pending appends of each file, by absolute path: one file's lines are written one at a time. */
const queues = new Map<string, Promise<void>>();

// Duck-typed rather than `instanceof`: the handler may come from another copy of the
// SDK's classes (a CommonJS and an ESM build side by side) than the client that calls it.
// A `DeliveryError` carries one conversation; a `QueueFullError` a whole burst of them.
function undelivered(error: NebulyError): UndeliveredConversation[] | undefined {
  const { conversations } = error as { conversations?: unknown };
  if (Array.isArray(conversations)) return conversations.filter(isUndelivered);
  if (!isUndelivered(error)) return undefined;
  const { idempotencyKey } = error as { idempotencyKey?: unknown };
  return [{ payload: error.payload, conversationId: error.conversationId, idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined }];
}

function isUndelivered(value: unknown): value is UndeliveredConversation {
  const { payload, conversationId } = (value ?? {}) as Partial<UndeliveredConversation>;
  return typeof payload === 'string' && typeof conversationId === 'string';
}

/**
 * Appends one record in one `write(2)` on a file opened `O_APPEND`: the kernel places it
 * whole at the end, so records of several processes never interleave, whatever their
 * size (`fs.appendFile` writes in 512 KiB pieces, which other processes' pieces can
 * split). Opened for each record, so that once `nebuly replay` has renamed the file away,
 * the next record starts a new file.
 */
async function appendRecord(file: string, record: Buffer): Promise<void> {
  const handle = await open(file, 'a', 0o600);
  try {
    const { bytesWritten } = await handle.write(record, 0, record.byteLength);
    // A short write (disk full) leaves a cut line; the next record still starts on a fresh one.
    if (bytesWritten !== record.byteLength) throw new Error(`only ${bytesWritten} of ${record.byteLength} bytes were written`);
  } finally {
    await handle.close();
  }
}

function defaultOtherError(error: NebulyError): void {
  console.warn(`[nebuly-client] ${error.name}: ${error.message}`);
}

function defaultWriteError(error: Error, conversationId: string): void {
  console.error(`[nebuly-client] conversation ${conversationId} was not delivered and could not be written to the dead-letter file: ${error.message}`);
}

/**
 * An `onError` handler for `new NebulyClient({ onError })` that appends each conversation
 * that could not be delivered (`DeliveryError`, `QueueFullError`) to a JSON Lines file,
 * one record a line (the request body with its idempotency key, see docs/cli.md), for
 * `nebuly replay <file>` to send again later under the same key. Each record is one
 * `write(2)` on a file opened for appending, so several processes may share a file and
 * their records never interleave, and a record cut by a crash does not spoil the next.
 * The file is created with mode 0600, as it holds conversation content. Never throws.
 *
 * @example
 * ```ts
 * import { NebulyClient } from 'nebuly-client';
 * import { writeDeadLetters } from 'nebuly-client/node';
 *
 * const deadLetters = writeDeadLetters('./nebuly-dead-letters.jsonl');
 * const nebuly = new NebulyClient({ onError: deadLetters });
 * // … on exit:
 * await nebuly.shutdown();
 * await deadLetters.flush();
 * // later, from a shell: npx nebuly replay ./nebuly-dead-letters.jsonl
 * ```
 */
export function writeDeadLetters(path: string, options: WriteDeadLettersOptions = {}): DeadLetterHandler {
  const { onOtherError = defaultOtherError, onWriteError = defaultWriteError } = options;
  const file = resolve(path);

  const handler = (error: NebulyError): void => {
    const conversations = undelivered(error);
    if (conversations === undefined) {
      try {
        onOtherError(error);
      } catch {
        // An onError handler never throws; neither does what it hands errors on to.
      }
      return;
    }
    for (const conversation of conversations) append(conversation);
  };

  const append = (conversation: UndeliveredConversation): void => {
    const write = async () => {
      try {
        await appendRecord(file, Buffer.from(encodeDeadLetter(conversation), 'utf8'));
      } catch (cause) {
        try {
          onWriteError(cause instanceof Error ? cause : new Error(String(cause)), conversation.conversationId);
        } catch {
          // An onWriteError that throws must not break the chain of later appends.
        }
      }
    };
    const queued = (queues.get(file) ?? Promise.resolve()).then(write);
    queues.set(file, queued);
    void queued.then(() => {
      if (queues.get(file) === queued) queues.delete(file);
    });
  };

  return Object.assign(handler, {
    flush: async (): Promise<void> => {
      await queues.get(file);
    },
  });
}
