import { describe, expect, it } from 'vitest';
import { user } from '../fixtures.js';
import { PROJECT_A, useTarget, type TargetFactory } from '../target.js';

export function userCases(factory: TargetFactory): void {
  describe('eligible and platform users', () => {
    const target = useTarget(factory);
    const stored = () => target().store.listUsers(PROJECT_A);

    it('insert answers the users inserted; list answers them in insertion order, active_to null when unset', async () => {
      const users = target().client().eligibleUsers;
      const inserted = await users.insert({ users: [user('u-2', { team: 'b' }), user('u-1', {}, '2026-12-31')] });
      await users.insert({ users: [user('u-3')] });

      expect(inserted.users.map((u) => u.end_user)).toEqual(['u-2', 'u-1']);
      const listed = await users.list();
      expect(listed.users).toEqual([
        { end_user: 'u-2', tags: { team: 'b' }, active_from: '2026-01-01', active_to: null },
        { end_user: 'u-1', tags: {}, active_from: '2026-01-01', active_to: '2026-12-31' },
        { end_user: 'u-3', tags: {}, active_from: '2026-01-01', active_to: null },
      ]);
      expect(stored()).toEqual(listed.users);
    });

    it('insert skips an end_user already stored: left unchanged, not in the answer', async () => {
      const users = target().client().eligibleUsers;
      await users.insert({ users: [user('u-1', { team: 'a' })] });
      const answer = await users.insert({ users: [user('u-1', { team: 'changed' }), user('u-2')] });

      expect(answer.users.map((u) => u.end_user)).toEqual(['u-2']);
      expect(stored()[0]).toMatchObject({ end_user: 'u-1', tags: { team: 'a' } });
    });

    it('insert skips a repeat of an end_user within the same request', async () => {
      const answer = await target().client().eligibleUsers.insert({ users: [user('u-1', { n: '1' }), user('u-1', { n: '2' })] });

      expect(answer.users).toHaveLength(1);
      expect(stored()).toEqual([expect.objectContaining({ end_user: 'u-1', tags: { n: '1' } })]);
    });

    it('update replaces tags, active_from and active_to, keeps the place in the list, and skips unknown users', async () => {
      const users = target().client().eligibleUsers;
      await users.insert({ users: [user('u-1', { team: 'a' }, '2026-06-30'), user('u-2')] });
      const answer = await users.update({
        users: [{ end_user: 'u-1', tags: { team: 'b' }, active_from: '2026-02-01' }, user('ghost')],
      });

      expect(answer.users).toEqual([{ end_user: 'u-1', tags: { team: 'b' }, active_from: '2026-02-01', active_to: null }]);
      expect(stored().map((u) => u.end_user)).toEqual(['u-1', 'u-2']);
      expect(stored()[0]).toEqual(answer.users[0]);
    });

    it('delete removes the listed users, ignores unknown ones, and says so in its message', async () => {
      const users = target().client().eligibleUsers;
      await users.insert({ users: [user('u-1'), user('u-2'), user('u-3')] });

      await expect(users.delete({ users: ['u-1', 'u-3'] })).resolves.toEqual({ message: '2 users deleted' });
      await expect(users.delete({ users: ['u-2', 'ghost'] })).resolves.toEqual({
        message: '1 user deleted; 1 not found, ignored',
      });
      expect(stored()).toEqual([]);
    });

    it('a user deleted and inserted again goes last', async () => {
      const users = target().client().eligibleUsers;
      await users.insert({ users: [user('u-1'), user('u-2')] });
      await users.delete({ users: ['u-1'] });
      await users.insert({ users: [user('u-1')] });

      expect((await users.list()).users.map((u) => u.end_user)).toEqual(['u-2', 'u-1']);
    });

    it('platform users are the same list: platformUsers.update and list see eligible users', async () => {
      const client = target().client();
      await client.eligibleUsers.insert({ users: [user('u-1', { team: 'a' })] });
      const answer = await client.platformUsers.update({ users: [user('u-1', { team: 'b' }), user('ghost')] });

      expect(answer.users).toEqual([{ end_user: 'u-1', tags: { team: 'b' }, active_from: '2026-01-01', active_to: null }]);
      expect((await client.platformUsers.list()).users).toEqual((await client.eligibleUsers.list()).users);
      expect(stored().map((u) => u.end_user)).toEqual(['u-1']);
    });

    it('platformUsers.insert (PUT) inserts into the same list and skips users already there', async () => {
      const client = target().client();
      await client.eligibleUsers.insert({ users: [user('u-1', { team: 'a' })] });
      const answer = await client.platformUsers.insert({ users: [user('u-1', { team: 'b' }), user('u-2')] });

      expect(answer.users.map((u) => u.end_user)).toEqual(['u-2']);
      expect(stored()).toEqual([
        { end_user: 'u-1', tags: { team: 'a' }, active_from: '2026-01-01', active_to: null },
        { end_user: 'u-2', tags: {}, active_from: '2026-01-01', active_to: null },
      ]);
    });
  });
}
