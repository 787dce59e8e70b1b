import { randomUuid } from '../utils/uuid.js';

let counter = 0;

/**
 * A new id for a conversation or an interaction: a random UUID where Web Crypto offers
 * random values (Node, Bun, Deno, workers, browsers), else a time, counter and random id.
 *
 * @example
 * ```ts
 * const conversationId = newId(); // '0b5a2c1e-…'
 * ```
 */
export function newId(): string {
  const uuid = randomUuid();
  if (uuid !== undefined) return uuid;
  counter += 1;
  return `id-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
