import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** One request as it arrived: what the SDK put on the wire. */
export interface CapturedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** What the fake service answers to one request. */
export type Reply = (request: CapturedRequest, index: number) => Response | Promise<Response>;

/**
 * An MSW server that records every request to `baseUrl` and answers through `reply`
 * (200 `{}` by default). Per-test state is reset by `reset()`.
 */
export function createRecordingServer(baseUrl: string) {
  const requests: CapturedRequest[] = [];
  let reply: Reply = () => HttpResponse.json({});
  const server = setupServer(
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const recorded: CapturedRequest = {
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: await request.text(),
      };
      requests.push(recorded);
      return reply(recorded, requests.length - 1);
    }),
  );
  return {
    requests,
    /** Starts intercepting; anything not matched is an error, so no request leaves the test. */
    listen: () => server.listen({ onUnhandledRequest: 'error' }),
    close: () => server.close(),
    reset() {
      requests.length = 0;
      reply = () => HttpResponse.json({});
    },
    /** Sets how the fake service answers. */
    answer(next: Reply) {
      reply = next;
    },
  };
}
