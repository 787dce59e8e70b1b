import { newId } from './ids.js';

/**
 * A conversation's key in the recorder and its store. `nebuly.conversation()` keys it by
 * the caller's id alone, so that every instance finds it (`c:<id>`); `startConversation()`
 * starts a new one every time, so its key is new too, with the caller's id after it, for
 * errors (`s:<uuid>:<id>`).
 *
 * @example
 * ```ts
 * sharedKey('chat-42'); // 'c:chat-42'
 * labelOf(sharedKey('chat-42')); // 'chat-42'
 * ```
 */
export function sharedKey(conversationId: string): string {
  return `c:${conversationId}`;
}

/** @see {@link sharedKey} */
export function newKey(conversationId: string): string {
  // Joined, not concatenated: one flat string for as long as the conversation is open,
  // where `+` leaves a tree of three and the UUID under it (~60 bytes more, each of
  // 100,000 open conversations).
  return ['s:', newId(), ':', conversationId].join('');
}

/** The caller's id of a conversation, from its key. */
export function labelOf(key: string): string {
  if (key.startsWith('c:')) return key.slice(2);
  if (key.startsWith('s:')) {
    const end = key.indexOf(':', 2);
    return end < 0 ? key : key.slice(end + 1);
  }
  return key;
}
