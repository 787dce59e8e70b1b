import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeModules } from './node.js';
import { chooseTransport } from './select.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A stand-in for `process` with some properties changed (its own are read-only). */
const withProcess = (changes: Record<string, unknown>) =>
  vi.stubGlobal('process', { getBuiltinModule: process.getBuiltinModule.bind(process), versions: process.versions, ...changes });

describe('chooseTransport', () => {
  it('uses node:http on Node, the platform fetch when asked, and a fetch of the user always', () => {
    const own = (async () => new Response()) as typeof fetch;
    expect(chooseTransport(undefined).name).toBe('node:http');
    expect(chooseTransport(undefined, 'fetch').name).toBe('fetch');
    expect(chooseTransport(own).name).toBe('custom fetch');
    expect(chooseTransport(own).fetch).toBe(own);
  });

  it('falls back to fetch on a Node without process.getBuiltinModule (before 20.16)', () => {
    withProcess({ getBuiltinModule: undefined });
    expect(nodeModules()).toBeUndefined();
    expect(chooseTransport(undefined).name).toBe('fetch');
  });

  it('uses fetch on runtimes that only emulate node:http: Bun, Deno, Cloudflare Workers', () => {
    withProcess({ versions: { ...process.versions, bun: '1.2.0' } });
    expect(chooseTransport(undefined).name).toBe('fetch');
    vi.unstubAllGlobals();
    vi.stubGlobal('Deno', {});
    expect(chooseTransport(undefined).name).toBe('fetch');
    vi.unstubAllGlobals();
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    expect(chooseTransport(undefined).name).toBe('fetch');
  });
});
