import type * as Http from 'node:http';
import type * as Net from 'node:net';
import type { Duplex } from 'node:stream';
import type * as Tls from 'node:tls';
import type { NodeModules } from './types.js';
import { proxyAuthorization } from './proxy.js';

type Created = (error: Error | null, socket: Duplex) => void;

/** An IP literal, which TLS may not name as the server (SNI takes host names only). */
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)$/i;

/**
 * A keep-alive HTTPS agent whose connections go through an HTTP(S) proxy: each opens
 * with `CONNECT host:port` to the proxy, then speaks TLS with the target over the
 * tunnel, so the proxy sees neither the request nor the API key. A proxy that refuses
 * the tunnel fails the attempt with a network error that names its status.
 *
 * @example
 * ```ts
 * const agent = tunnelAgent(nodeModules()!, new URL('http://proxy.internal:3128'));
 * https.request({ host: 'backend.nebuly.com', agent, path: '/api/external/eligible-users' });
 * ```
 */
export function tunnelAgent(modules: NodeModules, proxy: URL): Http.Agent {
  const via = proxy.protocol === 'https:' ? modules.https : modules.http;
  const proxyPort = proxy.port === '' ? (proxy.protocol === 'https:' ? 443 : 80) : Number(proxy.port);

  class TunnelAgent extends modules.https.Agent {
    // Node's agents accept a socket made asynchronously: return nothing, call back later.
    override createConnection(args: Http.ClientRequestArgs, callback?: Created): undefined {
      const options = args as Tls.ConnectionOptions;
      const done: Created = callback ?? (() => undefined);
      const host = String(options.host);
      const authority = `${host.includes(':') ? `[${host}]` : host}:${String(options.port)}`;
      const connect = via.request({
        host: proxy.hostname.replace(/^\[|\]$/g, ''),
        port: proxyPort,
        method: 'CONNECT',
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        agent: false,
      });
      connect.once('connect', (response: Http.IncomingMessage, socket: Net.Socket) => {
        if (response.statusCode !== 200) {
          socket.destroy();
          done(new Error(`the proxy answered CONNECT ${authority} with ${String(response.statusCode)}`), socket);
          return;
        }
        const servername = options.servername ?? (IP_LITERAL.test(host) ? undefined : host);
        done(null, modules.tls.connect({ ...options, socket, ...(servername === undefined ? {} : { servername }) }));
      });
      connect.once('error', (error: Error) => done(error, connect.socket as Net.Socket));
      connect.end();
      return undefined;
    }
  }
  return new TunnelAgent({ keepAlive: true });
}
