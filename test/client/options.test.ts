import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_DEFAULTS, NebulyClient, REGION_BASE_URLS } from '../../src/index.js';

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
    expect(() => new NebulyClient({ apiKey: 'k', baseUrl: 'backend' })).toThrow('is not a URL');
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

  it('lets a region given in code beat NEBULY_BASE_URL', () => {
    vi.stubEnv('NEBULY_BASE_URL', 'http://localhost:9999');
    expect(new NebulyClient({ apiKey: 'k', region: 'eu' }).baseUrl).toBe('https://backend.eu.nebuly.com');
    expect(new NebulyClient({ apiKey: 'k' }).baseUrl).toBe('http://localhost:9999');
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
