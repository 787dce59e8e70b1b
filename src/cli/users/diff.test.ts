import { describe, expect, it } from 'vitest';
import type { UserRecord, UserRecordResponse } from '../../schemas/index.js';
import { SyncDiff } from './diff.js';

function diffUsers(wanted: UserRecord[], current: UserRecordResponse[]): SyncDiff {
  const diff = new SyncDiff(new Map(current.map((user) => [user.end_user, user])), Infinity);
  for (const user of wanted) diff.add(user);
  diff.findMissing(current, (endUser) => wanted.some((user) => user.end_user === endUser));
  return diff;
}

const stored = (end_user: string, fields: Partial<{ tags: Record<string, string>; active_from: string; active_to: string | null }> = {}) => ({
  end_user,
  tags: {},
  active_from: '2026-01-01',
  active_to: null,
  ...fields,
});

describe('SyncDiff', () => {
  it('sorts the file into insert, update and unchanged, and lists the stored users missing from it', () => {
    const diff = diffUsers(
      [
        { end_user: 'new', tags: {}, active_from: '2026-01-01' },
        { end_user: 'same', tags: { team: 'a' }, active_from: '2026-01-01' },
        { end_user: 'changed', tags: { team: 'b', extra: 'x' }, active_from: '2026-01-01', active_to: '2026-12-31' },
      ],
      [stored('same', { tags: { team: 'a' } }), stored('changed', { tags: { team: 'a', old: 'y' } }), stored('gone')],
    );
    expect(diff.inserted).toEqual(['new']);
    expect(diff).toMatchObject({ insert: 1, update: 1, unchanged: 1 });
    expect(diff.updated).toEqual([
      {
        endUser: 'changed',
        changes: ['active_to (none) → 2026-12-31', 'tag.extra (none) → x', 'tag.old y → (none)', 'tag.team a → b'],
      },
    ]);
    expect(diff.missing).toEqual(['gone']);
  });

  it('compares timestamps as instants: a date and its midnight UTC date-time are the same', () => {
    const diff = diffUsers(
      [
        { end_user: 'a', tags: {}, active_from: '2026-01-01', active_to: '2026-06-30T12:00:00Z' },
        { end_user: 'b', tags: {}, active_from: '2026-01-01' },
      ],
      [
        stored('a', { active_from: '2026-01-01T00:00:00', active_to: '2026-06-30T14:00:00+02:00' }),
        stored('b', { active_from: '2026-01-02' }),
      ],
    );
    expect(diff.unchanged).toBe(1);
    expect(diff.updated.map((u) => u.changes)).toEqual([['active_from 2026-01-02 → 2026-01-01']]);
  });
});
