import { describe, expect, it, vi } from 'vitest';
import { maskPII, NebulyClient } from '../../src/index.js';

const make = (options: object) => () => new NebulyClient({ apiKey: 'k', ...options });

describe('the privacy options', () => {
  it('are set as docs/privacy.md shows', () => {
    vi.stubEnv('NEBULY_API_KEY', 'k');
    const nebuly = new NebulyClient({ mask: maskPII, sampleRate: 0.25, sampleKey: 'acme-2026' });
    expect(nebuly).toBeInstanceOf(NebulyClient);
  });

  it('accept a mask, a rate from 0 to 1 and a key', () => {
    expect(make({ mask: (payload: unknown) => payload, sampleRate: 0, sampleKey: 'k' })).not.toThrow();
    expect(make({ sampleRate: 1 })).not.toThrow();
    expect(make({ sampleRate: 0.25, mask: undefined, sampleKey: undefined })).not.toThrow();
  });

  it.each([
    [{ mask: 'maskPII' }, 'nebuly-client: `mask` must be a function (got string)'],
    [{ mask: null }, 'nebuly-client: `mask` must be a function (got null)'],
    [{ sampleRate: 2 }, 'nebuly-client: `sampleRate` must be a number from 0 to 1 (the share of end users kept)'],
    [{ sampleRate: -0.1 }, 'nebuly-client: `sampleRate` must be a number from 0 to 1 (the share of end users kept)'],
    [{ sampleRate: Number.NaN }, 'nebuly-client: `sampleRate` must be a number from 0 to 1 (the share of end users kept)'],
    [{ sampleRate: '0.5' }, 'nebuly-client: `sampleRate` must be a number from 0 to 1 (the share of end users kept)'],
    [{ sampleKey: '' }, 'nebuly-client: `sampleKey` must be a non-empty string'],
    [{ sampleKey: 42 }, 'nebuly-client: `sampleKey` must be a non-empty string'],
    [{ sampleRat: 0.5 }, 'nebuly-client: `sampleRat` is not an option; did you mean `sampleRate`?'],
  ])('reject %o, naming the option', (options, message) => {
    expect(make(options)).toThrow(new TypeError(message));
  });
});
