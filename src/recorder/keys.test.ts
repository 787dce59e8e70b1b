import { describe, expect, it } from 'vitest';
import { labelOf, newKey, sharedKey } from './keys.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('conversation keys', () => {
  it('keys a resumable conversation by the caller’s id alone, and gives that id back', () => {
    expect(sharedKey('chat-42')).toBe('c:chat-42');
    expect(labelOf(sharedKey('chat:42 é'))).toBe('chat:42 é');
  });

  it('keys each started conversation anew, `s:<uuid>:<id>`, and gives the caller’s id back, whatever it holds', () => {
    const first = newKey('chat-42');
    const second = newKey('chat-42');
    expect(first).not.toBe(second);
    const [prefix, uuid, ...rest] = first.split(':');
    expect(prefix).toBe('s');
    expect(uuid).toMatch(UUID);
    expect(rest.join(':')).toBe('chat-42');
    for (const id of ['a:b:c', 'ünï 😀', '']) expect(labelOf(newKey(id))).toBe(id);
  });

  it('gives back a key it does not know as it is', () => {
    expect(labelOf('other-key')).toBe('other-key');
    expect(labelOf('s:no-second-colon')).toBe('s:no-second-colon');
  });
});
