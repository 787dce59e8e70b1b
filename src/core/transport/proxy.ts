/**
 * Reads an environment variable by name; `undefined` when unset or empty.
 *
 * @example
 * ```ts
 * const env: EnvReader = (name) => process.env[name];
 * ```
 */
export type EnvReader = (name: string) => string | undefined;

/** The first of `names` that is set. */
function firstSet(env: EnvReader, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env(name)?.trim();
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** Whether one `NO_PROXY` entry covers `host` (lower case, no brackets) on `port`. */
function covers(entry: string, host: string, port: string): boolean {
  let name = entry;
  let entryPort: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) {
    name = bracketed[1] as string;
    entryPort = bracketed[2];
  } else if (/^[^:]+:\d+$/.test(entry)) {
    [name, entryPort] = entry.split(':') as [string, string];
  }
  if (entryPort !== undefined && entryPort !== port) return false;
  if (name.startsWith('*.')) name = name.slice(1);
  if (name.startsWith('.')) return host.endsWith(name) || host === name.slice(1);
  return host === name || host.endsWith(`.${name}`);
}

/** The port a URL uses, its scheme's default when it names none. */
function portOf(url: URL): string {
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}

/**
 * The proxy to reach `target` through, from the environment as curl reads it:
 * `https_proxy` / `HTTPS_PROXY` for an `https:` URL, `http_proxy` / `HTTP_PROXY` for an
 * `http:` one (lower case first), unless `NO_PROXY` / `no_proxy` covers the host: `*`
 * (everything), a host name (itself and its subdomains; a leading `.` or `*.` is the
 * same), an IP address, each optionally with `:port`. `undefined`: connect directly. A
 * proxy URL without a scheme is taken as `http://`.
 *
 * @example
 * ```ts
 * proxyFor(new URL('https://backend.nebuly.com/x'), (name) => ({ HTTPS_PROXY: 'http://proxy:3128' })[name]);
 * // URL { href: 'http://proxy:3128/' }
 * ```
 */
export function proxyFor(target: URL, env: EnvReader): URL | undefined {
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const proxy = firstSet(env, names);
  if (proxy === undefined) return undefined;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy !== undefined) {
    const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    const port = portOf(target);
    const entries = noProxy.toLowerCase().split(/[\s,]+/).filter((entry) => entry !== '');
    if (entries.some((entry) => entry === '*' || covers(entry, host, port))) return undefined;
  }
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`);
  } catch {
    return undefined;
  }
}

/**
 * The `Proxy-Authorization` header for a proxy URL with credentials (`http://user:pass@proxy:3128`).
 *
 * @example
 * ```ts
 * proxyAuthorization(new URL('http://u:p@proxy:3128')); // { 'proxy-authorization': 'Basic dTpw' }
 * ```
 */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (proxy.username === '' && proxy.password === '') return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  let binary = '';
  for (const byte of new TextEncoder().encode(credentials)) binary += String.fromCharCode(byte);
  return { 'proxy-authorization': `Basic ${btoa(binary)}` };
}
