import { describe, expect, it } from 'vitest';
import { OpenConversations } from './open-conversations.js';

interface Handle {
  id: number;
  activity: number;
  lastActivityAt(): number;
}

function handle(id: number, activity: number): Handle {
  return {
    id,
    activity,
    lastActivityAt() {
      return this.activity;
    },
  };
}

/** A small seeded generator, so that a failure is repeatable. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('OpenConversations', () => {
  it('names the idlest, by activity recorded after it was added', () => {
    const open = new OpenConversations<number, Handle>();
    const handles = [handle(0, 0), handle(1, 1), handle(2, 2)];
    for (const entry of handles) open.add(entry.id, entry);
    expect(open.idlest()?.id).toBe(0);
    (handles[0] as Handle).activity = 10; // the heap is not told
    expect(open.idlest()?.id).toBe(1);
    open.delete(1);
    expect(open.idlest()?.id).toBe(2);
    expect(open.size).toBe(2);
    open.delete(2);
    open.delete(0);
    expect(open.idlest()).toBeUndefined();
  });

  it('agrees with a full scan over thousands of random adds, activities and removals', () => {
    const random = seeded(7);
    const open = new OpenConversations<number, Handle>();
    const live = new Map<number, Handle>();
    let clock = 0;
    for (let id = 0; id < 5_000; id += 1) {
      clock += 1;
      const entry = handle(id, clock);
      open.add(id, entry);
      live.set(id, entry);
      for (const other of live.values()) if (random() < 0.002) other.activity = clock;
      if (random() < 0.3) {
        const ids = Array.from(live.keys());
        const gone = ids[Math.floor(random() * ids.length)] as number;
        open.delete(gone);
        live.delete(gone);
      }
      if (id % 10 === 0 && live.size > 0) {
        const oldest = Math.min(...Array.from(live.values(), (other) => other.activity));
        expect(open.idlest()?.activity).toBe(oldest);
      }
    }
    expect(open.size).toBe(live.size);
    expect(new Set(open.handles())).toEqual(new Set(live.values()));
  });

  it('stops on a clock that reads NaN', () => {
    const open = new OpenConversations<number, Handle>();
    open.add(0, handle(0, Number.NaN));
    open.add(1, handle(1, 5));
    expect(open.idlest()).toBeDefined();
  });
});
