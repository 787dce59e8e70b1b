let counter = 0;

/**
 * A new id for a conversation or an interaction: a random UUID where Web Crypto offers
 * one (Node, Bun, Deno, workers, secure browser pages), else a time, counter and random
 * id.
 *
 * @example
 * ```ts
 * const conversationId = newId(); // '0b5a…'
 * ```
 */
export function newId(): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  if (uuid !== undefined) {
    // Node builds the UUID by concatenation: a tree of some 20 string pieces, ~490 bytes
    // of heap for each id kept (ids live as long as their interaction, conversation or
    // queued body). Reading a character makes V8 flatten it in place: ~70 bytes.
    uuid.charCodeAt(0);
    return uuid;
  }
  counter += 1;
  return `id-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
