import { describe, expect, it } from 'vitest';
import { formatPath } from '../utils/issues.js';
import { checkStartParams, type StartConversationParams } from './start.js';

describe('checkStartParams', () => {
  it('keeps valid parameters and copies the tags', () => {
    const tags = { channel: 'web' };
    const checked = checkStartParams({ end_user: 'u', tags, conversation_id: 'c-9' });
    expect(checked).toEqual({ conversationId: 'c-9', idGiven: true, endUser: 'u', tags: { channel: 'web' }, issues: [] });
    tags.channel = 'changed';
    expect(checked.tags).toEqual({ channel: 'web' });
  });

  it('generates an id when none is given', () => {
    const a = checkStartParams({ end_user: 'u' }).conversationId;
    const b = checkStartParams({ end_user: 'u' }).conversationId;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it('leaves out bad tags and replaces a bad id, keeping the conversation', () => {
    const checked = checkStartParams({
      end_user: 'u',
      tags: { good: 'x', bad: 1 },
      conversation_id: '',
    } as unknown as StartConversationParams);
    expect(checked.endUser).toBe('u');
    expect(checked.tags).toEqual({ good: 'x' });
    expect(checked.conversationId).not.toBe('');
    expect(checked.issues.map((issue) => formatPath(issue.path))).toEqual(['tags.bad', 'conversation_id']);
  });

  it('makes the conversation unusable without a valid end_user', () => {
    expect(checkStartParams({ end_user: '' }).endUser).toBeUndefined();
    expect(checkStartParams(null as unknown as StartConversationParams).endUser).toBeUndefined();
  });
});
