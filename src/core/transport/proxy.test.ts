import { describe, expect, it } from 'vitest';
import { proxyAuthorization, proxyFor } from './proxy.js';

const env = (vars: Record<string, string>) => (name: string) => vars[name];
const via = (url: string, vars: Record<string, string>) => proxyFor(new URL(url), env(vars))?.href;

describe('proxyFor', () => {
  it('takes the https variable for https URLs and the http one for http URLs, lower case first', () => {
    const vars = { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:3128' };
    expect(via('https://backend.nebuly.com/x', vars)).toBe('http://secure:3128/');
    expect(via('http://127.0.0.1:8787/x', vars)).toBe('http://plain:3128/');
    expect(via('https://a.example', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })).toBe('http://lower:1/');
    expect(via('https://a.example', { HTTP_PROXY: 'http://plain:3128' })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://', () => {
    expect(via('https://a.example', { HTTPS_PROXY: 'proxy.internal:3128' })).toBe('http://proxy.internal:3128/');
  });

  it.each([
    ['*', 'https://backend.nebuly.com'],
    ['backend.nebuly.com', 'https://backend.nebuly.com'],
    ['nebuly.com', 'https://backend.eu.nebuly.com'],
    ['.nebuly.com', 'https://backend.nebuly.com'],
    ['*.nebuly.com', 'https://backend.nebuly.com'],
    ['localhost, 127.0.0.1', 'http://127.0.0.1:8787'],
    ['127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['BACKEND.NEBULY.COM', 'https://backend.nebuly.com'],
    ['[::1]', 'http://[::1]:8787'],
  ])('NO_PROXY=%j sends %s directly', (noProxy, url) => {
    expect(via(url, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy })).toBeUndefined();
  });

  it.each([
    ['other.com', 'https://backend.nebuly.com'],
    ['ebuly.com', 'https://backend.nebuly.com'],
    ['127.0.0.1:9999', 'http://127.0.0.1:8787'],
  ])('NO_PROXY=%j still proxies %s', (noProxy, url) => {
    expect(via(url, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', no_proxy: noProxy })).toBe('http://p:1/');
  });
});

describe('proxyAuthorization', () => {
  it('turns the proxy URL credentials into Basic, decoded first', () => {
    expect(proxyAuthorization(new URL('http://user:p%40ss@proxy:3128'))).toEqual({
      'proxy-authorization': `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
    });
    expect(proxyAuthorization(new URL('http://proxy:3128'))).toEqual({});
  });
});
