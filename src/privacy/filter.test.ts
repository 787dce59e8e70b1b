import { describe, expect, it, vi } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../core/endpoints.js';
import { NebulyError } from '../core/errors.js';
import { maskingFilter } from './filter.js';

describe('maskingFilter', () => {
  it('sends nothing to an ingesting endpoint whose kind of body it does not know, rather than send it unmasked', () => {
    const mask = vi.fn((payload) => payload);
    const unknown: Endpoint = { ...ENDPOINTS.sendConversation, path: '/event-ingestion/api/v9/new', ingests: true };
    const filter = maskingFilter(mask, () => {});
    expect(() => filter(unknown, { secret: 'x' })).toThrow(
      new NebulyError('POST /event-ingestion/api/v9/new has no kind of body to mask; nothing was sent'),
    );
    expect(mask).not.toHaveBeenCalled();
  });

  it('passes the bodies of endpoints that store no conversation content through', () => {
    const mask = vi.fn((payload) => payload);
    const body = { users: [] };
    expect(maskingFilter(mask, () => {})(ENDPOINTS.insertEligibleUsers, body)).toBe(body);
    expect(mask).not.toHaveBeenCalled();
  });
});
