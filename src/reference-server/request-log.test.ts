import { describe, expect, it } from 'vitest';
import { RequestLog, type RecordedRequest } from './request-log.js';

function request(path: string, method = 'GET'): Omit<RecordedRequest, 'bodyDropped'> {
  return { method, path, status: 200, body: '', project: 'p', durationMs: 1 };
}

describe('RequestLog', () => {
  it('counts and selects by path and method (any case), oldest first', () => {
    const log = new RequestLog(10);
    log.add(request('/a'));
    log.add(request('/a', 'POST'));
    log.add(request('/b'));

    expect(log.count()).toBe(3);
    expect(log.count({ path: '/a' })).toBe(2);
    expect(log.count({ path: '/a', method: 'post' })).toBe(1);
    expect(log.all({ method: 'GET' }).map((r) => r.path)).toEqual(['/a', '/b']);
    expect(log.last({ path: '/a' })?.method).toBe('POST');
    expect(log.last({ path: '/none' })).toBeUndefined();
  });

  it('keeps only the latest `limit` requests', () => {
    const log = new RequestLog(2);
    for (const path of ['/1', '/2', '/3']) log.add(request(path));
    expect(log.all().map((r) => r.path)).toEqual(['/2', '/3']);
  });

  it('hands out copies, and clear() forgets everything', () => {
    const log = new RequestLog(5);
    log.add(request('/a'));
    const copy = log.all()[0];
    if (copy !== undefined) copy.path = '/changed';
    expect(log.last()?.path).toBe('/a');
    log.clear();
    expect(log.count()).toBe(0);
  });

  it('keeps bodies within maxBytes (UTF-8): the oldest bodies are dropped first and counted, the requests stay', () => {
    const log = new RequestLog(100, 10);
    log.add({ ...request('/1', 'POST'), body: 'aaaa' });
    log.add({ ...request('/2', 'POST'), body: 'ééé' }); // 6 bytes: 10 in all
    expect(log.droppedBodies).toBe(0);
    log.add({ ...request('/3', 'POST'), body: 'bb' });

    expect(log.all().map((r) => [r.path, r.body, r.bodyDropped])).toEqual([
      ['/1', '', true],
      ['/2', 'ééé', false],
      ['/3', 'bb', false],
    ]);
    expect(log.droppedBodies).toBe(1);
    expect(log.bodyBytes).toBe(8);
    log.add({ ...request('/4', 'POST'), body: 'x'.repeat(11) }); // alone over the bound: dropped too
    expect(log.all().map((r) => r.bodyDropped)).toEqual([true, true, true, true]);
    expect(log.bodyBytes).toBe(0);
    expect(log.droppedBodies).toBe(4);
  });

  it('stays within the bound however many bodies come: 1,000 bodies of 64 KiB keep at most maxBytes of them', () => {
    const body = 'x'.repeat(64 * 1024);
    const log = new RequestLog(1000, 8 * 64 * 1024);
    for (let i = 0; i < 1000; i += 1) log.add({ ...request(`/${i}`, 'POST'), body });
    expect(log.count()).toBe(1000);
    expect(log.bodyBytes).toBe(8 * 64 * 1024);
    expect(log.all().filter((r) => !r.bodyDropped)).toHaveLength(8);
    expect(log.droppedBodies).toBe(992);
  });
});
