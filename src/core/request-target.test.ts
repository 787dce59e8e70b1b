import { describe, expect, it } from 'vitest';
import { requestTarget } from './request-target.js';

describe('requestTarget', () => {
  it('fills a path param, encoded, and sends nothing else for a GET without others', () => {
    expect(requestTarget('GET', '/detail/{interaction_id}', { interaction_id: 'a/b c?' })).toEqual({ path: '/detail/a%2Fb%20c%3F', json: undefined });
  });

  it('puts a GET’s params in the query string, encoded', () => {
    expect(requestTarget('GET', '/export', { date_gte: '2026-01-01T00:00:00.000Z', date_lt: '2026-01-08T00:00:00.000Z' }).path).toBe(
      '/export?date_gte=2026-01-01T00%3A00%3A00.000Z&date_lt=2026-01-08T00%3A00%3A00.000Z',
    );
  });

  it('sends any other method’s params as its body, less those in the path', () => {
    const params = { users: ['u-1'] };
    expect(requestTarget('DELETE', '/users', params)).toEqual({ path: '/users', json: params });
    expect(requestTarget('POST', '/a/{id}', { id: 'x', tags: {} })).toEqual({ path: '/a/x', json: { tags: {} } });
    expect(requestTarget('GET', '/users', undefined)).toEqual({ path: '/users', json: undefined });
  });
});
