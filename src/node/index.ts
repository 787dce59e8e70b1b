/**
 * `nebuly-client/node`: helpers that need Node's file system. Nothing here reaches the
 * main entry, which runs anywhere `fetch` does.
 */
export { writeDeadLetters, type DeadLetterHandler, type WriteDeadLettersOptions } from './dead-letters.js';
