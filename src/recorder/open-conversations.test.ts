import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_PER_TICK, OpenConversations } from './open-conversations.js';
import { ConversationState } from './state.js';

let time = 0;
const now = () => time;
const events = { ended: () => undefined, settled: () => undefined, feedback: () => undefined };

function handle(key: string) {
  return { state: new ConversationState(key, key, { open: true, now, report: () => undefined, events }) };
}
type Handle = ReturnType<typeof handle>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  time = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OpenConversations', () => {
  it('keeps them in order of activity: recording on one moves it last, in O(1)', () => {
    const open = new OpenConversations<Handle>({ idleTimeoutMs: 0, now, onIdle: () => undefined });
    const [a, b, c] = ['a', 'b', 'c'].map(handle) as [Handle, Handle, Handle];
    for (const entry of [a, b, c]) open.add(entry);
    expect(open.idlest()).toBe(a);
    time = 5;
    a.state.lastActivityAt = time; // what a turn does when it records
    expect(open.idlest()).toBe(b);
    open.delete(b);
    expect(open.idlest()).toBe(c);
    expect(open.get('a')).toBe(a);
    expect(open.size).toBe(2);
    // Taken out, its activity no longer moves anything.
    open.delete(c);
    c.state.lastActivityAt = 6;
    expect(open.idlest()).toBe(a);
    expect(open.size).toBe(1);
  });

  it('serves every conversation with one timer, and holds none when nothing is open', () => {
    const idle: string[] = [];
    const open = new OpenConversations<Handle>({ idleTimeoutMs: 1_000, now, onIdle: (h) => idle.push(h.state.key) });
    for (const key of ['a', 'b', 'c']) open.add(handle(key));
    expect(vi.getTimerCount()).toBe(1);
    time = 500;
    (open.get('a') as Handle).state.lastActivityAt = time;
    time = 1_000;
    vi.advanceTimersByTime(1_000);
    expect(idle).toEqual(['b', 'c']);
    time = 1_500;
    vi.advanceTimersByTime(500);
    expect(idle).toEqual(['b', 'c', 'a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it(`ends at most ${IDLE_PER_TICK} a tick, the rest on the next ticks`, () => {
    const idle: string[] = [];
    const open = new OpenConversations<Handle>({ idleTimeoutMs: 100, now, onIdle: (h) => idle.push(h.state.key) });
    for (let i = 0; i < IDLE_PER_TICK * 2 + 10; i += 1) open.add(handle(`k${i}`));
    time = 100;
    vi.advanceTimersByTime(100);
    expect(idle).toHaveLength(IDLE_PER_TICK);
    vi.advanceTimersByTime(1);
    expect(idle).toHaveLength(IDLE_PER_TICK * 2);
    vi.advanceTimersByTime(1);
    expect(idle).toHaveLength(IDLE_PER_TICK * 2 + 10);
    expect(idle[0]).toBe('k0');
  });

  it('ends no more than `room` allows; the others stay open, idle, with no timer, until roomFreed()', () => {
    const idle: string[] = [];
    let room = 10;
    const open = new OpenConversations<Handle>({
      idleTimeoutMs: 100,
      now,
      onIdle: (h) => {
        idle.push(h.state.key);
        room -= 1;
      },
      room: () => room,
    });
    for (let i = 0; i < 30; i += 1) open.add(handle(`k${i}`));
    time = 100;
    vi.advanceTimersByTime(100);
    expect(idle).toHaveLength(10);
    expect(open.size).toBe(20);
    expect(open.isIdle(open.idlest() as Handle)).toBe(true);
    // Nothing polls while there is no room.
    expect(vi.getTimerCount()).toBe(0);
    room = 15;
    open.roomFreed();
    // Not in roomFreed()'s call: on a timer of its own.
    expect(idle).toHaveLength(10);
    vi.advanceTimersByTime(0);
    expect(idle).toHaveLength(25);
    open.roomFreed();
    expect(vi.getTimerCount()).toBe(1);
    room = 100;
    vi.advanceTimersByTime(0);
    expect(idle).toHaveLength(30);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets a wait for room once stopped (at shutdown): roomFreed() then arms nothing', () => {
    let room = 0;
    const open = new OpenConversations<Handle>({ idleTimeoutMs: 100, now, onIdle: () => (room -= 1), room: () => room });
    open.add(handle('a'));
    time = 100;
    vi.advanceTimersByTime(100);
    expect(open.size).toBe(1);
    open.stop();
    room = 10;
    open.roomFreed();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never ends anything with a time-out of 0 or Infinity, and takes a clock that gives NaN', () => {
    for (const idleTimeoutMs of [0, Number.POSITIVE_INFINITY]) {
      const open = new OpenConversations<Handle>({ idleTimeoutMs, now, onIdle: () => expect.unreachable() });
      open.add(handle('a'));
      expect(vi.getTimerCount()).toBe(0);
    }
    const idle: string[] = [];
    const open = new OpenConversations<Handle>({ idleTimeoutMs: 100, now: () => Number.NaN, onIdle: (h) => idle.push(h.state.key) });
    open.add(handle('a'));
    vi.advanceTimersByTime(1_000);
    expect(idle).toEqual([]);
  });
});
