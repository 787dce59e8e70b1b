/**
 * A fake Amazon Bedrock runtime on loopback, for the examples and tests: answers
 * `POST /model/{modelId}/converse` with the JSON you script and
 * `POST /model/{modelId}/converse-stream` with AWS event-stream messages, over cleartext
 * HTTP/2 (the protocol the Bedrock runtime client speaks by default), so that the real
 * `@aws-sdk/client-bedrock-runtime` runs end to end with its default handler, no network
 * and no credentials.
 */
import { createServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/** A request as the fake Bedrock runtime received it. */
export interface BedrockRequest {
  /** `Converse` or `ConverseStream`, from the path. */
  operation: string;
  /** The model id of the path, decoded. */
  modelId: string;
  headers: Http2ServerRequest['headers'];
  /** `2.0`: the client's default handler speaks HTTP/2. */
  httpVersion: string;
  /** The JSON body, parsed. */
  body: unknown;
}

/** One message of a ConverseStream answer: an event (`contentBlockDelta`…) or an exception (`modelStreamErrorException`…). */
export type BedrockStreamMessage = { event: string; data: unknown } | { exception: string; data: unknown };

/** How the fake Bedrock runtime answers one request. */
export type BedrockReply =
  | {
      status?: number;
      json: unknown;
      /** The error's type (`ThrottlingException`), sent as `x-amzn-errortype`, as Bedrock does. */
      errorType?: string;
    }
  | {
      /** Sent one by one, in order, each an event-stream message. */
      stream: BedrockStreamMessage[];
      /** Stop after this many messages and keep the stream open, as a slow model does. */
      hangAfter?: number;
    };

/** Answers requests as `answer` says; see {@link BedrockReply}. */
export type BedrockAnswerer = (request: BedrockRequest, index: number) => BedrockReply;

/** A 4-byte big-endian unsigned integer. */
function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes;
}

/**
 * One message of the AWS event-stream encoding, from its public description: a prelude
 * (the message's total length and its headers' length, 4 bytes each, big-endian), the
 * prelude's CRC32, the headers (each: name length in 1 byte, the name, value type 7 for a
 * string, the value's length in 2 bytes, the value), the payload, and the CRC32 of all
 * that precedes it.
 * @example
 * ```ts
 * eventStreamMessage({ ':message-type': 'event', ':event-type': 'messageStop' }, Buffer.from('{"stopReason":"end_turn"}'));
 * ```
 */
export function eventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name, 'utf8');
      const valueBytes = Buffer.from(value, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(valueBytes.length);
      return Buffer.concat([Buffer.from([nameBytes.length]), nameBytes, Buffer.from([7]), length, valueBytes]);
    }),
  );
  const total = 4 + 4 + 4 + headerBytes.length + payload.length + 4;
  const prelude = Buffer.concat([uint32(total), uint32(headerBytes.length)]);
  const withoutCrc = Buffer.concat([prelude, uint32(crc32(prelude)), headerBytes, payload]);
  return Buffer.concat([withoutCrc, uint32(crc32(withoutCrc))]);
}

/**
 * One message of a ConverseStream answer as event-stream bytes: an event, or an exception.
 * @example
 * ```ts
 * streamMessageBytes({ event: 'messageStop', data: { stopReason: 'end_turn' } });
 * ```
 */
export function streamMessageBytes(message: BedrockStreamMessage): Buffer {
  const payload = Buffer.from(JSON.stringify(message.data), 'utf8');
  const headers =
    'event' in message
      ? { ':message-type': 'event', ':event-type': message.event, ':content-type': 'application/json' }
      : { ':message-type': 'exception', ':exception-type': message.exception, ':content-type': 'application/json' };
  return eventStreamMessage(headers, payload);
}

async function readJson(request: Http2ServerRequest): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function send(response: Http2ServerResponse, reply: BedrockReply): void {
  if ('json' in reply) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' };
    if (reply.errorType !== undefined) headers['x-amzn-errortype'] = `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
    response.writeHead(reply.status ?? 200, headers);
    response.end(JSON.stringify(reply.json));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
  const count = reply.hangAfter ?? reply.stream.length;
  for (const message of reply.stream.slice(0, count)) response.write(streamMessageBytes(message));
  // A hanging stream stays open until the client goes away.
  if (reply.hangAfter === undefined) response.end();
}

const PATH = /^\/model\/([^/]+)\/(converse|converse-stream)$/;

/**
 * Starts the fake Bedrock runtime on a free loopback port (cleartext HTTP/2).
 *
 * @example
 * ```ts
 * const bedrock = await startFakeBedrockServer(() => ({ json: converseOutput({ text: 'Hi!' }) }));
 * const client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: bedrock.url, credentials });
 * // …
 * await bedrock.close();
 * ```
 */
export async function startFakeBedrockServer(answer: BedrockAnswerer) {
  const requests: BedrockRequest[] = [];
  const sessions = new Set<ServerHttp2Session>();
  let current = answer;
  const server = createServer((request, response) => {
    readJson(request)
      .then((body) => {
        const match = PATH.exec(request.url.split('?')[0] ?? '');
        if (match === null) {
          send(response, { status: 404, json: { message: `no route for ${request.url}` }, errorType: 'UnknownOperationException' });
          return;
        }
        const received: BedrockRequest = {
          operation: match[2] === 'converse' ? 'Converse' : 'ConverseStream',
          modelId: decodeURIComponent(match[1] ?? ''),
          headers: request.headers,
          httpVersion: request.httpVersion,
          body,
        };
        requests.push(received);
        send(response, current(received, requests.length - 1));
      })
      .catch((error: unknown) => send(response, { status: 500, json: { message: String(error) }, errorType: 'InternalServerException' }));
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** `http://127.0.0.1:<port>`: the client's `endpoint`. */
    url: `http://127.0.0.1:${port}`,
    /** Every request received, oldest first. */
    requests,
    /** Replaces how requests are answered. */
    answer(next: BedrockAnswerer) {
      current = next;
    },
    /** Stops the server, dropping sessions still open (hanging streams). */
    close(): Promise<void> {
      for (const session of sessions) session.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake Bedrock runtime, as {@link startFakeBedrockServer} returns it. */
export type FakeBedrockServer = Awaited<ReturnType<typeof startFakeBedrockServer>>;

/** What the fake model answers: text, tool uses, token counts. */
export interface BedrockAnswer {
  text?: string;
  toolUses?: { toolUseId: string; name: string; input: Record<string, unknown> }[];
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

function usage(answer: BedrockAnswer) {
  const input = answer.inputTokens ?? 0;
  const output = answer.outputTokens ?? 0;
  const cacheRead = answer.cacheReadInputTokens;
  const cacheWrite = answer.cacheWriteInputTokens;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output + (cacheRead ?? 0) + (cacheWrite ?? 0),
    ...(cacheRead === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}

/**
 * A `Converse` answer: the text, then the tool uses, as the assistant's message.
 * @example
 * ```ts
 * bedrock.answer(() => ({ json: converseOutput({ text: 'Hi!', inputTokens: 5, outputTokens: 2 }) }));
 * ```
 */
export function converseOutput(answer: BedrockAnswer): unknown {
  const toolUses = answer.toolUses ?? [];
  return {
    output: {
      message: {
        role: 'assistant',
        content: [...(answer.text === undefined ? [] : [{ text: answer.text }]), ...toolUses.map((toolUse) => ({ toolUse }))],
      },
    },
    stopReason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
    usage: usage(answer),
    metrics: { latencyMs: 120 },
  };
}

/**
 * A `ConverseStream` answer's events: the text in `pieces` (one block), each tool use a
 * block whose input JSON arrives in two pieces, then `messageStop` and `metadata` (usage).
 * @example
 * ```ts
 * bedrock.answer(() => ({ stream: converseStreamEvents({ text: 'Hello', outputTokens: 2 }, ['Hel', 'lo']) }));
 * ```
 */
export function converseStreamEvents(answer: BedrockAnswer, pieces = answer.text === undefined ? [] : [answer.text]): BedrockStreamMessage[] {
  const events: BedrockStreamMessage[] = [{ event: 'messageStart', data: { role: 'assistant' } }];
  let index = 0;
  if (pieces.length > 0) {
    for (const text of pieces) events.push({ event: 'contentBlockDelta', data: { contentBlockIndex: index, delta: { text } } });
    events.push({ event: 'contentBlockStop', data: { contentBlockIndex: index } });
    index += 1;
  }
  for (const { toolUseId, name, input } of answer.toolUses ?? []) {
    const json = JSON.stringify(input);
    const half = Math.floor(json.length / 2);
    events.push({ event: 'contentBlockStart', data: { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } } });
    for (const piece of [json.slice(0, half), json.slice(half)]) {
      events.push({ event: 'contentBlockDelta', data: { contentBlockIndex: index, delta: { toolUse: { input: piece } } } });
    }
    events.push({ event: 'contentBlockStop', data: { contentBlockIndex: index } });
    index += 1;
  }
  events.push({ event: 'messageStop', data: { stopReason: (answer.toolUses ?? []).length > 0 ? 'tool_use' : 'end_turn' } });
  events.push({ event: 'metadata', data: { usage: usage(answer), metrics: { latencyMs: 120 } } });
  return events;
}
