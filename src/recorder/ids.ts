let counter = 0;

/**
 * A new conversation id: a random UUID where Web Crypto offers one (Node, Bun, Deno,
 * workers, secure browser pages), else a time-and-counter id that is unique within this
 * process, which is all the recorder needs it for (naming conversations in errors).
 */
export function newConversationId(): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  if (uuid !== undefined) return uuid;
  counter += 1;
  return `conv-${Date.now().toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
