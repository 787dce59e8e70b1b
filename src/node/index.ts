/**
 * `nebuly-client/node`: helpers that need Node's file system. Nothing here reaches the
 * main entry, which runs anywhere `fetch` does.
 *
 * @example
 * ```ts
 * import { NebulyClient } from 'nebuly-client';
 * import { writeDeadLetters } from 'nebuly-client/node';
 *
 * const nebuly = new NebulyClient({ onError: writeDeadLetters('./nebuly-dead-letters.jsonl') });
 * ```
 *
 * @module nebuly-client/node
 */
export { writeDeadLetters, type DeadLetterHandler, type WriteDeadLettersOptions } from './dead-letters.js';
