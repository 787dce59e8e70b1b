import { describe, expect, it } from 'vitest';
import { FaultInjector } from './faults.js';

describe('FaultInjector', () => {
  it('hits the next `times` requests in scope, then is spent and removed', () => {
    const faults = new FaultInjector();
    const fault = faults.add({ status: 503, times: 2 });

    expect(faults.take('GET', '/a')?.status).toBe(503);
    expect(fault).toMatchObject({ hits: 1, remaining: 1 });
    expect(faults.take('POST', '/b')?.status).toBe(503);
    expect(faults.take('GET', '/a')).toBeUndefined();
    expect(fault.remaining).toBe(0);
    expect(faults.pending).toEqual([]);
  });

  it('defaults to one hit', () => {
    const faults = new FaultInjector();
    faults.add({ drop: true });
    expect(faults.take('GET', '/')).toMatchObject({ drop: true, times: 1 });
    expect(faults.take('GET', '/')).toBeUndefined();
  });

  it('checks faults in the order added; a fault out of scope lets the next one hit', () => {
    const faults = new FaultInjector();
    faults.add({ status: 500, path: '/only-here', method: 'post' });
    faults.add({ status: 429 });

    expect(faults.take('GET', '/only-here')?.status).toBe(429);
    expect(faults.take('POST', '/only-here')?.status).toBe(500);
  });

  it('a request spared by the probability draw does not count towards times', () => {
    const draws = [0.8, 0.3, 0.8];
    const faults = new FaultInjector(() => draws.shift() ?? 0);
    const fault = faults.add({ status: 503, probability: 0.5, times: 1 });

    expect(faults.take('GET', '/')).toBeUndefined();
    expect(fault.remaining).toBe(1);
    expect(faults.take('GET', '/')?.status).toBe(503);
    expect(faults.take('GET', '/')).toBeUndefined();
  });

  it('draws only for faults in scope, so unrelated requests do not shift a seeded sequence', () => {
    let draws = 0;
    const faults = new FaultInjector(() => {
      draws += 1;
      return 0;
    });
    faults.add({ status: 503, probability: 0.5, path: '/x', times: Infinity });
    faults.take('GET', '/y');
    faults.take('GET', '/x');
    expect(draws).toBe(1);
  });

  it('remove() and clear() take faults back before they are spent', () => {
    const faults = new FaultInjector();
    const first = faults.add({ status: 500, times: Infinity });
    faults.add({ delayMs: 10 });
    first.remove();
    expect(faults.pending).toHaveLength(1);
    faults.clear();
    expect(faults.take('GET', '/')).toBeUndefined();
  });

  it.each([
    [{}, 'at least one'],
    [{ status: 503, drop: true }, 'cannot be combined'],
    [{ status: 42 }, 'HTTP status'],
    [{ delayMs: -1 }, 'delayMs'],
    [{ drop: true, times: 0 }, 'times'],
    [{ drop: true, times: 1.5 }, 'times'],
    [{ drop: true, probability: 2 }, 'probability'],
    [{ delayMs: 5, retryAfter: '1' }, 'retryAfter'],
  ])('rejects %j with a TypeError that says why', (spec, words) => {
    expect(() => new FaultInjector().add(spec)).toThrow(TypeError);
    expect(() => new FaultInjector().add(spec)).toThrow(words);
  });
});
