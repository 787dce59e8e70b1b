import { describe, expect, it } from 'vitest';
import { RequestLog, type RecordedRequest } from './request-log.js';

function request(path: string, method = 'GET'): RecordedRequest {
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
});
