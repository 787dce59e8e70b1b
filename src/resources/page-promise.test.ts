import { describe, expect, it } from 'vitest';
import { PagePromise } from './page-promise.js';

/** Pages of `rows` from a list of `count`, asked through `asked`; `withTotal` says whether pages carry `total`. */
function pages(count: number, withTotal: boolean, asked: number[]) {
  const rows = Array.from({ length: count }, (_, index) => index);
  return (limit: number) => async (offset: number) => {
    asked.push(offset);
    const data = rows.slice(offset, offset + limit);
    return withTotal ? { data, total: count } : { data };
  };
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('PagePromise', () => {
  it('asks nothing until awaited or iterated', async () => {
    const asked: number[] = [];
    const list = new PagePromise(pages(5, true, asked)(2), 0, 2);
    await Promise.resolve();
    expect(asked).toEqual([]);
    await expect(list).resolves.toEqual({ data: [0, 1], total: 5 });
    expect(asked).toEqual([0]);
  });

  it('awaited then iterated asks the first page once', async () => {
    const asked: number[] = [];
    const list = new PagePromise(pages(5, true, asked)(2), 0, 2);
    await list;
    expect(await all(list)).toEqual([0, 1, 2, 3, 4]);
    expect(asked).toEqual([0, 2, 4]);
  });

  it('from an offset, stops at total; an exact multiple asks no empty page', async () => {
    const asked: number[] = [];
    expect(await all(new PagePromise(pages(6, true, asked)(2), 2, 2))).toEqual([2, 3, 4, 5]);
    expect(asked).toEqual([2, 4]);
  });

  it('without total, stops at a short page, or at an empty one', async () => {
    const short: number[] = [];
    expect(await all(new PagePromise(pages(5, false, short)(2), 0, 2))).toEqual([0, 1, 2, 3, 4]);
    expect(short).toEqual([0, 2, 4]);
    const exact: number[] = [];
    expect(await all(new PagePromise(pages(4, false, exact)(2), 0, 2))).toEqual([0, 1, 2, 3]);
    expect(exact).toEqual([0, 2, 4]);
  });

  it('a failing page rejects the iteration and the await alike; catch and finally work', async () => {
    const failing = new PagePromise<{ data: number[] }, number>(() => Promise.reject(new Error('boom')), 0, 2);
    await expect(all(failing)).rejects.toThrow('boom');
    let settled = false;
    await expect(failing.finally(() => (settled = true))).rejects.toThrow('boom');
    expect(settled).toBe(true);
    await expect(failing.catch((error: unknown) => (error as Error).message)).resolves.toBe('boom');
  });
});
