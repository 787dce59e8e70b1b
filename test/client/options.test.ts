import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, NebulyClient, NebulyError } from '../../src/index.js';
import { CLIENT_DEFAULTS, REGION_BASE_URLS } from '../../src/core/options.js';
import { RECORDER_DEFAULTS } from '../../src/core/recorder-options.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** A fetch that answers every request and remembers where it went. */
function capturingFetch() {
  const urls: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return Response.json({ users: [], message: 'ok' });
  };
  return { urls, fetch };
}

/** Calls every endpoint once, so a test can see which host each one went to. */
async function callEveryEndpoint(nebuly: NebulyClient) {
  const conversation = { conversation: { end_user: 'u', interactions: [] } };
  const interaction = {
    interaction: { conversation_id: 'c', input: 'i', output: 'o', time_start: new Date(), time_end: new Date(), end_user: 'u' },
    traces: [],
  };
  await nebuly.interactions.send(interaction);
  await nebuly.interactions.delete({ filters: [{ kind: 'user', values: ['u'] }] });
  await nebuly.conversations.send(conversation);
  await nebuly.eligibleUsers.insert({ users: [] });
  await nebuly.eligibleUsers.update({ users: [] });
  await nebuly.eligibleUsers.delete({ users: ['u'] });
  await nebuly.eligibleUsers.list();
  await nebuly.platformUsers.update({ users: [] });
  await nebuly.platformUsers.list();
}

describe('region and base URL', () => {
  it.each([
    ['us', 'https://backend.nebuly.com'],
    ['eu', 'https://backend.eu.nebuly.com'],
  ] as const)('region %s sends every endpoint to %s', async (region, host) => {
    const { urls, fetch } = capturingFetch();
    const nebuly = new NebulyClient({ apiKey: 'k', region, fetch });
    expect(nebuly.baseUrl).toBe(host);
    await callEveryEndpoint(nebuly);
    expect(urls).toHaveLength(9);
    for (const url of urls) expect(new URL(url).origin).toBe(host);
  });

  it("defaults to the 'us' region", () => {
    vi.stubEnv('NEBULY_REGION', '');
    vi.stubEnv('NEBULY_BASE_URL', '');
    expect(CLIENT_DEFAULTS.region).toBe('us');
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe(REGION_BASE_URLS.us);
  });

  it('lets baseUrl override the region, keeping its path and dropping a trailing slash', async () => {
    const { urls, fetch } = capturingFetch();
    const nebuly = new NebulyClient({ apiKey: 'k', region: 'eu', baseUrl: 'http://127.0.0.1:8787/proxy/', fetch });
    await nebuly.platformUsers.list();
    expect(urls).toEqual(['http://127.0.0.1:8787/proxy/api/external/platform-users']);
  });

  it('rejects an unknown region at construction', () => {
    expect(() => new NebulyClient({ apiKey: 'k', region: 'asia' as 'us' })).toThrow(
      `nebuly-client: unknown region "asia"; use 'us' or 'eu'`,
    );
  });

  it('rejects a baseUrl that is not a URL', () => {
    expect(() => new NebulyClient({ apiKey: 'k', baseUrl: 'http://back end' })).toThrow('is not a URL');
  });

  it.each(['localhost:8787', 'ftp://proxy.example', '127.0.0.1:8787'])(
    'rejects the baseUrl %s, which has no http(s):// scheme, at construction and sends nothing',
    (baseUrl) => {
      const { urls, fetch } = capturingFetch();
      expect(() => new NebulyClient({ apiKey: 'k', baseUrl, fetch })).toThrow(
        new TypeError('nebuly-client: `baseUrl` (or NEBULY_BASE_URL) must start with http:// or https://, e.g. http://127.0.0.1:8787.'),
      );
      expect(urls).toEqual([]);
    },
  );

  it('rejects a NEBULY_BASE_URL without a scheme too', () => {
    vi.stubEnv('NEBULY_BASE_URL', 'localhost:8787');
    expect(() => new NebulyClient({ apiKey: 'k' })).toThrow(TypeError);
  });

  it.each([
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ timeoutMs: Number.NaN }, 'timeoutMs'],
    [{ retryDelayMs: -5 }, 'retryDelayMs'],
    [{ timeoutMs: 2 ** 31 }, 'timeoutMs'],
  ])('rejects %o', (options, name) => {
    expect(() => new NebulyClient({ apiKey: 'k', ...options })).toThrow(name);
  });
});

describe('environment variables', () => {
  it('reads NEBULY_API_KEY, NEBULY_REGION and NEBULY_BASE_URL', async () => {
    vi.stubEnv('NEBULY_API_KEY', 'env-key');
    vi.stubEnv('NEBULY_REGION', 'eu');
    vi.stubEnv('NEBULY_BASE_URL', '');
    const seen: Request[] = [];
    const nebuly = new NebulyClient({
      fetch: async (input) => {
        seen.push(input as Request);
        return Response.json({ users: [] });
      },
    });
    expect(nebuly.baseUrl).toBe('https://backend.eu.nebuly.com');
    await nebuly.eligibleUsers.list();
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer env-key');

    vi.stubEnv('NEBULY_BASE_URL', 'http://localhost:9999');
    expect(new NebulyClient().baseUrl).toBe('http://localhost:9999');
  });

  it('prefers options over the environment', () => {
    vi.stubEnv('NEBULY_API_KEY', 'env-key');
    vi.stubEnv('NEBULY_REGION', 'eu');
    vi.stubEnv('NEBULY_BASE_URL', '');
    expect(new NebulyClient({ apiKey: 'k', region: 'us' }).baseUrl).toBe('https://backend.nebuly.com');
  });

  it('follows baseUrl > NEBULY_BASE_URL > region > NEBULY_REGION > us', () => {
    vi.stubEnv('NEBULY_REGION', 'eu');
    vi.stubEnv('NEBULY_BASE_URL', 'http://localhost:9999');
    const local = 'http://localhost:9999';
    // The local-testing guide's NEBULY_BASE_URL wins over the quick start's `region: 'eu'`.
    expect(new NebulyClient({ apiKey: 'k', region: 'eu' }).baseUrl).toBe(local);
    expect(new NebulyClient({ apiKey: 'k', region: 'us', baseUrl: 'http://127.0.0.1:1' }).baseUrl).toBe('http://127.0.0.1:1');
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe(local);
    vi.stubEnv('NEBULY_BASE_URL', '');
    expect(new NebulyClient({ apiKey: 'k', region: 'us' }).baseUrl).toBe(REGION_BASE_URLS.us);
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe(REGION_BASE_URLS.eu);
    vi.stubEnv('NEBULY_REGION', '');
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe(REGION_BASE_URLS.us);
  });

  it('accepts the region in any case', () => {
    vi.stubEnv('NEBULY_REGION', 'EU');
    vi.stubEnv('NEBULY_BASE_URL', '');
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe('https://backend.eu.nebuly.com');
  });

  it('rejects an unknown NEBULY_REGION at construction', () => {
    vi.stubEnv('NEBULY_REGION', 'mars');
    expect(() => new NebulyClient({ apiKey: 'k' })).toThrow('unknown region "mars"');
  });

  it('says how to give a key when there is none', () => {
    vi.stubEnv('NEBULY_API_KEY', '');
    expect(() => new NebulyClient()).toThrow(
      'nebuly-client: no API key. Pass `apiKey` to `new NebulyClient()` or set NEBULY_API_KEY.',
    );
    expect(() => new NebulyClient({ apiKey: '   ' })).toThrow('no API key');
  });

  it('works where there is no process at all (browsers, workers)', () => {
    vi.stubGlobal('process', undefined);
    expect(() => new NebulyClient()).toThrow('no API key');
    expect(new NebulyClient({ apiKey: 'k', region: 'eu' }).baseUrl).toBe('https://backend.eu.nebuly.com');
  });

  it('works where reading the environment throws (Deno without --allow-env)', () => {
    vi.stubGlobal('process', {
      get env(): never {
        throw new Error('PermissionDenied');
      },
    });
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe('https://backend.nebuly.com');
  });
});

describe('unknown option names', () => {
  it.each([
    [{ maxRetry: 3 }, 'nebuly-client: `maxRetry` is not an option; did you mean `maxRetries`?'],
    [{ apikey: 'k' }, 'nebuly-client: `apikey` is not an option; did you mean `apiKey`?'],
    [{ baseURL: 'http://127.0.0.1:1' }, 'nebuly-client: `baseURL` is not an option; did you mean `baseUrl`?'],
    [{ timeout: 1000 }, 'nebuly-client: `timeout` is not an option; did you mean `timeoutMs`?'],
    [{ recorder: { idleTimeout: 1000 } }, 'nebuly-client: `recorder.idleTimeout` is not an option; did you mean `recorder.idleTimeoutMs`?'],
    [{ recorder: { maxConcurentSends: 2 } }, 'nebuly-client: `recorder.maxConcurentSends` is not an option; did you mean `recorder.maxConcurrentSends`?'],
  ])('rejects %o, suggesting the nearest known name', (options, message) => {
    expect(() => new NebulyClient({ apiKey: 'k', ...(options as object) })).toThrow(new TypeError(message));
  });

  it('lists the known names when none is near', () => {
    expect(() => new NebulyClient({ apiKey: 'k', colour: 'red' } as object)).toThrow(
      /`colour` is not an option; the options are `apiKey`, `region`, `baseUrl`, .*`dangerouslyAllowBrowser`/,
    );
    expect(() => new NebulyClient({ apiKey: 'k', recorder: { colour: 'red' } as object })).toThrow(
      /`recorder.colour` is not an option; the options are `recorder.idleTimeoutMs`, .*`recorder.now`/,
    );
  });

  it('checks `modelPrices`: an object of prices, each field a number of dollars, input and output required', () => {
    expect(() => new NebulyClient({ apiKey: 'k', modelPrices: [] as never })).toThrow('`modelPrices` must be an object of model names to prices (got an array)');
    expect(() => new NebulyClient({ apiKey: 'k', modelPrices: { 'gpt-4o': 2.5 } as never })).toThrow(
      '`modelPrices.gpt-4o` must be a price { input, output, cachedInput?, cacheWrite? }',
    );
    expect(() => new NebulyClient({ apiKey: 'k', modelPrices: { m: { input: -1, output: 2 } } })).toThrow(
      '`modelPrices.m.input` must be a number of US dollars per million tokens, zero or more',
    );
    expect(() => new NebulyClient({ apiKey: 'k', modelPrices: { m: { input: 1 } } as never })).toThrow('`modelPrices.m.output` is required');
    expect(() => new NebulyClient({ apiKey: 'k', modelPrices: { m: { input: 1, output: 2, cached: 1 } } as never })).toThrow(
      '`modelPrices.m.cached` is not a price field; the price fields are `modelPrices.m.input`, `modelPrices.m.cachedInput`',
    );
  });

  it('names a misspelt key option before complaining that there is no key', () => {
    vi.stubEnv('NEBULY_API_KEY', '');
    expect(() => new NebulyClient({ apiKey_: 'k' } as object)).toThrow('did you mean `apiKey`?');
  });

  it('accepts every documented option, undefined included', () => {
    const every: Required<ClientOptions> = {
      apiKey: 'k',
      region: 'eu',
      baseUrl: 'http://127.0.0.1:1',
      timeoutMs: 1000,
      maxRetries: 0,
      retryDelayMs: 10,
      fetch: capturingFetch().fetch,
      headers: {},
      onError: () => {},
      logLevel: 'off',
      logger: console,
      recorder: { ...RECORDER_DEFAULTS },
      mask: (payload) => payload,
      sampleRate: 0.5,
      sampleKey: 'team-key',
      feedbackSecret: 'f'.repeat(32),
      feedbackOrigins: ['https://app.example.com'],
      modelPrices: { 'my-model': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 4 } },
      dangerouslyAllowBrowser: false,
    };
    expect(new NebulyClient(every).baseUrl).toBe('http://127.0.0.1:1');
    expect(new NebulyClient({ apiKey: 'k', region: undefined, recorder: { idleTimeoutMs: undefined } }).baseUrl).toBeTypeOf('string');
  });
});

describe('in a browser', () => {
  function pretendBrowser() {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
  }

  it('refuses to construct, saying what the key exposes', () => {
    pretendBrowser();
    expect(() => new NebulyClient({ apiKey: 'k' })).toThrow(NebulyError);
    expect(() => new NebulyClient({ apiKey: 'secret-key' })).toThrow(
      /refusing to run in a browser.*read every user of the project and delete every interaction.*`dangerouslyAllowBrowser: true`/,
    );
    try {
      new NebulyClient({ apiKey: 'secret-key' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-key');
    }
  });

  it('constructs with dangerouslyAllowBrowser: true', () => {
    pretendBrowser();
    expect(new NebulyClient({ apiKey: 'k', dangerouslyAllowBrowser: true }).baseUrl).toBe(REGION_BASE_URLS.us);
  });

  it.each([
    ['a web worker or Deno (no document)', () => vi.stubGlobal('window', undefined)],
    ['a window without a document', () => vi.stubGlobal('window', {})],
    ['a document without a window', () => vi.stubGlobal('document', {})],
  ])('is not a browser in %s', (_, set) => {
    set();
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe(REGION_BASE_URLS.us);
  });
});
