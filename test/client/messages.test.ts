import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NebulyClient, ValidationError, type SendInteractionParams, type UserRecord } from '../../src/index.js';
import { createRecordingServer } from '../helpers/recording-server.js';

// Messages that say what to change, for the mistakes a new user makes in the first hour.
const BASE = 'https://backend.nebuly.com';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(service.reset);
afterAll(service.close);

const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: BASE, maxRetries: 0 });

/** The messages of the ValidationError the call rejects with, by path; nothing was sent. */
async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(service.requests).toHaveLength(0);
  return (error as ValidationError).issues.map((issue) => `${issue.pathText}: ${issue.message}`);
}

const interaction: SendInteractionParams['interaction'] = {
  conversation_id: 'c-1',
  input: 'Hi',
  output: 'Hello',
  time_start: '2026-03-01T10:00:00Z',
  time_end: '2026-03-01T10:00:01Z',
  end_user: 'u',
};
const user: UserRecord = { end_user: 'u', tags: {}, active_from: '2026-01-01' };

describe('a timestamp', () => {
  it('without a time zone: says to add `Z` or an offset, not "a Date"', async () => {
    expect(await issuesOf(nebuly.interactions.send({ interaction: { ...interaction, time_start: '2026-03-01T10:00:00' }, traces: [] }))).toEqual([
      'interaction.time_start: has no time zone: add `Z` for UTC or an offset such as `+02:00` (2026-01-01T09:30:00Z)',
    ]);
    expect(await issuesOf(nebuly.eligibleUsers.insert({ users: [{ ...user, active_from: '2026-01-01 09:30' }] }))).toEqual([
      'users[0].active_from: has no time zone: add `Z` for UTC or an offset such as `+02:00` (2026-01-01T09:30:00Z), or give the date alone (2026-01-01)',
    ]);
  });

  it('of an interaction given as a date alone: says to add the time', async () => {
    expect(await issuesOf(nebuly.interactions.send({ interaction: { ...interaction, time_end: '2026-03-01' }, traces: [] }))).toEqual([
      'interaction.time_end: must be a date-time, not a date: add the time and `Z` (2026-01-01T09:30:00Z)',
    ]);
  });

  it('as a string of another form: shows the forms taken; of another type: names the type', async () => {
    expect(await issuesOf(nebuly.eligibleUsers.insert({ users: [{ ...user, active_from: '01/02/2026' }] }))).toEqual([
      'users[0].active_from: must be an ISO 8601 date (2026-01-01) or date-time with `Z` or an offset (2026-01-01T09:30:00Z)',
    ]);
    expect(await issuesOf(nebuly.eligibleUsers.insert({ users: [{ ...user, active_from: 20260101 as unknown as string }] }))).toEqual([
      'users[0].active_from: must be a Date or an ISO 8601 date or date-time string (got number)',
    ]);
    expect(await issuesOf(nebuly.interactions.send({ interaction: { ...interaction, time_end: new Date(Number.NaN) }, traces: [] }))).toEqual([
      'interaction.time_end: must be a valid Date (got an Invalid Date)',
    ]);
  });
});

describe('users', () => {
  it('as the list itself: says to pass `{ users: [...] }`', async () => {
    const hint = 'must be an object with the list as `users`: pass `{ users: [...] }`, not the list itself';
    expect(await issuesOf(nebuly.eligibleUsers.insert([user] as unknown as { users: UserRecord[] }))).toEqual([`(root): ${hint}`]);
    expect(await issuesOf(nebuly.eligibleUsers.delete(['u'] as unknown as { users: string[] }))).toEqual([`(root): ${hint}`]);
  });

  it('with `active_to` before `active_from`: refused at `active_to`, comparing instants', async () => {
    expect(await issuesOf(nebuly.platformUsers.update({ users: [{ ...user, active_from: '2026-03-01', active_to: '2026-02-28T23:59:59Z' }] }))).toEqual([
      'users[0].active_to: must not be before `active_from`',
    ]);
  });

  it('with `active_to` equal to or after `active_from`, in any form: sent', async () => {
    service.answer(() => Response.json({ users: [] }));
    await nebuly.eligibleUsers.insert({
      users: [
        { ...user, active_from: '2026-03-01', active_to: '2026-03-01T00:00:00Z' },
        { ...user, end_user: 'v', active_from: new Date('2026-03-01T10:00:00Z'), active_to: '2026-03-01T12:00:00+02:00' },
      ],
    });
    expect(service.requests).toHaveLength(1);
  });
});

describe('a field written in camelCase', () => {
  it('is named with the wire name it stands for', async () => {
    const { end_user: _, ...rest } = user;
    const camel = { ...rest, endUser: 'u', activeFrom: '2026-01-01' };
    delete (camel as Partial<UserRecord>).active_from;
    expect(await issuesOf(nebuly.eligibleUsers.insert({ users: [camel as unknown as UserRecord] }))).toEqual([
      'users[0].end_user: is required (got `endUser`: did you mean `end_user`?)',
      'users[0].active_from: is required (got `activeFrom`: did you mean `active_from`?)',
    ]);
    const { conversation_id: __, ...withoutId } = interaction;
    expect(await issuesOf(nebuly.interactions.send({ interaction: { ...withoutId, conversationId: 'c' } as never, traces: [] }))).toEqual([
      'interaction.conversation_id: is required (got `conversationId`: did you mean `conversation_id`?)',
    ]);
  });

  it('gets no hint when the field is simply missing', async () => {
    const { end_user: _, ...rest } = user;
    expect(await issuesOf(nebuly.eligibleUsers.insert({ users: [rest as UserRecord] }))).toEqual(['users[0].end_user: is required']);
  });
});
