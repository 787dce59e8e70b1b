import { describe, expect, it } from 'vitest';
import { readUsersJson, writeUsersJson } from './json.js';

describe('users JSON', () => {
  it('reads what it writes', () => {
    const users = [
      { end_user: 'a', tags: { team: '[x], {y}' }, active_from: '2026-01-01' },
      { end_user: 'b"]', tags: {}, active_from: '2026-01-01', active_to: '2026-06-30' },
    ];
    expect(readUsersJson(writeUsersJson(users))).toEqual({ users, issues: [] });
    expect(readUsersJson(writeUsersJson([]))).toEqual({ users: [], issues: [] });
  });

  it('reports each bad record by the line it starts on and the field, in an array or under "users"', () => {
    const records = '[\n  {"end_user": "a", "tags": {}, "active_from": "2026-01-01"},\n  {"end_user": "[b]",\n   "tags": {"n": 1}, "active_from": "2026-01-01", "extra": true}\n]';
    const expected = [
      { line: 3, column: 'tags.n', message: 'must be a string (got number)' },
      { line: 3, column: 'extra', message: 'unknown field' },
    ];
    expect(readUsersJson(records).issues).toEqual(expected);
    const wrapped = `{"note": [1, 2],\n "users": ${records}}`;
    expect(readUsersJson(wrapped).issues).toEqual(expected.map((issue) => ({ ...issue, line: 4 })));
  });

  it('malformed JSON: the line of the syntax error; another shape: said so', () => {
    expect(readUsersJson('[\n{"end_user": "a",\n}').issues[0]).toMatchObject({ line: 3, message: expect.stringMatching(/^malformed JSON/) });
    expect(readUsersJson('{"people": []}').issues[0]?.message).toBe('expected an array of users, or an object with a "users" array');
  });
});
