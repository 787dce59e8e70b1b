/**
 * Serving the page (page.ts) from the Node server: to a browser on the same machine, with
 * no API key. The peer must be a loopback address and the `Host` a loopback name, so that
 * another machine, or a web page that rebinds its own name to 127.0.0.1, gets a 403.
 */
import type { IncomingMessage } from 'node:http';
import { PAGE_HEADERS, PAGE_PATH, renderPage } from './page.js';
import type { ReferenceStore } from './store.js';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * Whether a request comes from this machine and names it as such.
 * @example
 * ```ts
 * isLocalRequest('127.0.0.1', '127.0.0.1:8787'); // true
 * isLocalRequest('127.0.0.1', 'evil.example:8787'); // false: a rebound name
 * ```
 */
export function isLocalRequest(peer: string | undefined, host: string | undefined): boolean {
  return LOOPBACK_PEER.test(peer ?? '') && LOOPBACK_HOST.test(host ?? '');
}

/**
 * The page's response to `GET /`, or `undefined` for any other request (the API's).
 * @example
 * ```ts
 * const response = pageResponse(incoming, app.store, ['dev-project']) ?? (await app.handle(request, path));
 * ```
 */
export function pageResponse(incoming: IncomingMessage, pathname: string, store: ReferenceStore, projects: readonly string[]): Response | undefined {
  if (pathname !== PAGE_PATH || (incoming.method ?? 'GET').toUpperCase() !== 'GET') return undefined;
  if (!isLocalRequest(incoming.socket.remoteAddress, incoming.headers.host)) {
    return new Response('The page is served to a browser on the machine that runs the reference server only.\n', {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const html = renderPage({ projects: projects.map((name) => ({ name, conversations: store.listConversations(name) })) });
  return new Response(html, { status: 200, headers: PAGE_HEADERS });
}
