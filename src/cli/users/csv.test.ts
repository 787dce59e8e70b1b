import { describe, expect, it } from 'vitest';
import { readUsersCsv, writeUsersCsv } from './csv.js';
import type { ExportedUser } from './exported.js';

describe('users CSV', () => {
  it('writes what it reads back to the same records: commas, quotes, line breaks, empty strings', async () => {
    const users: ExportedUser[] = [
      { end_user: 'a, b', tags: { note: 'said "hi"', team: 'x' }, active_from: '2026-01-01', active_to: '2026-12-31' },
      { end_user: 'empty', tags: { note: '' }, active_from: '2026-01-01T10:00:00Z' },
      { end_user: 'two\nlines', tags: { team: 'line\r\nbreak' }, active_from: '2026-01-01' },
      { end_user: 'none', tags: {}, active_from: '2026-01-01' },
    ];
    const csv = writeUsersCsv(users);
    expect(csv.split('\n')[0]).toBe('end_user,active_from,active_to,tag.note,tag.team');
    expect(await readUsersCsv(csv)).toEqual({ users, issues: [] });
  });

  it('an unquoted empty cell is no value; a quoted one ("") is an empty string', async () => {
    const { users } = await readUsersCsv('end_user,active_from,active_to,tag.a,tag.b\nu,2026-01-01,,,""\n');
    expect(users).toEqual([{ end_user: 'u', active_from: '2026-01-01', tags: { b: '' } }]);
  });

  it('reports each bad row by the line it starts on, a row spanning lines included, and the column', async () => {
    const { users, issues } = await readUsersCsv(
      'end_user,active_from,tag.team\n"one\ntwo\nthree",2026-01-01,a\nbad,2026-02-30x,b\n\n,2026-01-01,c\n',
    );
    expect(users.map((u) => u.end_user)).toEqual(['one\ntwo\nthree']);
    expect(issues).toEqual([
      { line: 5, column: 'active_from', message: 'must be an ISO 8601 date (2026-01-01) or date-time with `Z` or an offset (2026-01-01T09:30:00Z)' },
      { line: 7, column: 'end_user', message: 'is required' },
    ]);
  });

  it('counts lines right with CRLF line breaks, inside quoted cells too, and with non-ASCII text', async () => {
    const { users, issues } = await readUsersCsv(
      'end_user,active_from,tag.note\r\nü,2026-01-01,"a\r\nb"\r\n\r\nbad,never,\r\nok,2026-01-01,é\r\nworse,,\r\n',
    );
    expect(users.map((u) => u.tags)).toEqual([{ note: 'a\r\nb' }, { note: 'é' }]);
    expect(issues.map((issue) => issue.line)).toEqual([5, 7]);
    expect((await readUsersCsv('end_user,active_from\r\n"a\r\nb",2026-01-01\r\nc,"2026-01-01"x\r\n')).issues).toEqual([
      { line: 4, column: undefined, message: expect.stringMatching(/^malformed CSV: Invalid Closing Quote/) },
    ]);
  });

  it('checks the header: unknown, repeated, missing and nameless tag columns, all on line 1', async () => {
    const { issues } = await readUsersCsv('end_user,tag.,tag.a,tag.a,email\nu,x,y,z,w\n');
    expect(issues.map((issue) => `${issue.column}: ${issue.message}`)).toEqual([
      'tag.: unknown column; expected end_user, active_from, active_to or tag.<name>',
      'tag.a: appears twice in the header',
      'email: unknown column; expected end_user, active_from, active_to or tag.<name>',
      'active_from: missing from the header',
    ]);
    expect(issues.every((issue) => issue.line === 1)).toBe(true);
  });

  it.each([
    [';', 'end_user;active_from;tag.team\nu;2026-01-01;a\n', /^the columns are separated by semicolons \(";", as Excel saves CSV where the comma is the decimal mark\), not commas/],
    ['tab', 'end_user\tactive_from\nu\t2026-01-01\n', /^the columns are separated by tabs \(a TSV file\), not commas/],
  ])('a file separated by %s gets a hint naming the separator, not "unknown column"', async (_name, csv, hint) => {
    const { users, issues } = await readUsersCsv(csv);
    expect(users).toEqual([]);
    expect(issues[0]).toEqual({ line: 1, column: undefined, message: expect.stringMatching(hint) as string });
    expect(issues[0]?.message).toContain('save the file as comma-separated CSV');
    expect(issues.map((issue) => issue.message).join('\n')).not.toContain('unknown column');
  });

  it('a one-column header with a semicolon in an unknown name is still an unknown column', async () => {
    const { issues } = await readUsersCsv('email;phone\nx;y\n');
    expect(issues[0]?.message).toMatch(/^unknown column/);
  });

  it('an empty file asks for a header; a BOM is skipped', async () => {
    expect((await readUsersCsv('')).issues[0]?.message).toMatch(/^no header row/);
    expect((await readUsersCsv('\uFEFFend_user,active_from\nu,2026-01-01\n')).users).toHaveLength(1);
  });
});
