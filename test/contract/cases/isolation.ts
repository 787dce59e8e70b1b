import { describe, expect, it } from 'vitest';
import { conversationParams, interactionParams, user } from '../fixtures.js';
import { KEY_A, KEY_A2, KEY_B, PROJECT_A, PROJECT_B, useTarget, type TargetFactory } from '../target.js';

export function isolationCases(factory: TargetFactory): void {
  describe('project isolation: key B never reads, changes or deletes project A', () => {
    const target = useTarget(factory);
    const a = () => target().client(KEY_A);
    const b = () => target().client(KEY_B);
    const usersOf = (project: string) => target().store.listUsers(project);
    const inputsOf = (project: string) => target().store.listInteractions(project).map((stored) => stored.input);

    it('interactions.send with key B stores in project B only', async () => {
      await b().interactions.send(interactionParams({ input: 'from B' }));
      expect(inputsOf(PROJECT_A)).toEqual([]);
      expect(inputsOf(PROJECT_B)).toEqual(['from B']);
    });

    it('conversations.send with key B stores in project B only', async () => {
      await b().conversations.send(conversationParams());
      expect(inputsOf(PROJECT_A)).toEqual([]);
      expect(inputsOf(PROJECT_B)).toHaveLength(2);
    });

    it('delete-interactions with key B and no filter leaves project A whole', async () => {
      await a().interactions.send(interactionParams({ input: 'from A', end_user: 'shared-user' }));
      await b().interactions.send(interactionParams({ input: 'from B', end_user: 'shared-user' }));

      await expect(b().interactions.delete({})).resolves.toEqual({ message: '1 interaction deleted' });
      await b().interactions.delete({ filters: [{ kind: 'user', values: ['shared-user'] }] });
      expect(inputsOf(PROJECT_A)).toEqual(['from A']);
      expect(inputsOf(PROJECT_B)).toEqual([]);
    });

    it('eligibleUsers.list and platformUsers.list with key B show none of project A', async () => {
      await a().eligibleUsers.insert({ users: [user('alice')] });
      await expect(b().eligibleUsers.list()).resolves.toEqual({ users: [] });
      await expect(b().platformUsers.list()).resolves.toEqual({ users: [] });
    });

    it('eligibleUsers.insert with key B of an end_user of A inserts it in B, A unchanged', async () => {
      await a().eligibleUsers.insert({ users: [user('alice', { owner: 'a' })] });
      const answer = await b().eligibleUsers.insert({ users: [user('alice', { owner: 'b' })] });

      expect(answer.users).toHaveLength(1);
      expect(usersOf(PROJECT_A)).toEqual([expect.objectContaining({ tags: { owner: 'a' } })]);
      expect(usersOf(PROJECT_B)).toEqual([expect.objectContaining({ tags: { owner: 'b' } })]);
    });

    it('eligibleUsers.update and platformUsers.update with key B cannot touch A’s users', async () => {
      await a().eligibleUsers.insert({ users: [user('alice', { owner: 'a' })] });

      await expect(b().eligibleUsers.update({ users: [user('alice', { owner: 'b' })] })).resolves.toEqual({ users: [] });
      await expect(b().platformUsers.update({ users: [user('alice', { owner: 'b' })] })).resolves.toEqual({ users: [] });
      expect(usersOf(PROJECT_A)).toEqual([expect.objectContaining({ tags: { owner: 'a' } })]);
      expect(usersOf(PROJECT_B)).toEqual([]);
    });

    it('eligibleUsers.delete with key B cannot delete A’s users', async () => {
      await a().eligibleUsers.insert({ users: [user('alice')] });

      await expect(b().eligibleUsers.delete({ users: ['alice'] })).resolves.toEqual({
        message: '0 users deleted; 1 not found, ignored',
      });
      expect(usersOf(PROJECT_A)).toHaveLength(1);
    });

    it('two keys of the same project share its data', async () => {
      await a().eligibleUsers.insert({ users: [user('alice')] });
      await target().client(KEY_A2).interactions.send(interactionParams({ input: 'second key' }));

      expect((await target().client(KEY_A2).eligibleUsers.list()).users).toHaveLength(1);
      expect(inputsOf(PROJECT_A)).toEqual(['second key']);
    });
  });
}
