import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import {
  hashEndUser,
  interactionParams,
  NebulyClient,
  UnexpectedResponseError,
  UnprocessableEntityError,
  usdToMicroDollars,
  ValidationError,
  type SendInteractionParams,
} from '../../src/index.js';
import { MAX_JSON_DEPTH } from '../../src/schemas/json.js';
import { createRecordingServer } from '../helpers/recording-server.js';
import { rejection, thrown } from '../helpers/caught.js';

const BASE = 'https://backend.nebuly.com';
const service = createRecordingServer(BASE);
beforeAll(service.listen);
afterEach(service.reset);
afterAll(service.close);

const nebuly = new NebulyClient({ apiKey: 'k', baseUrl: BASE, maxRetries: 0 });



function withContent(content: unknown): SendInteractionParams {
  return {
    interaction: {
      conversation_id: 'c-1',
      input: 'Hi',
      output: 'Hello',
      time_start: '2026-03-01T10:00:00Z',
      time_end: '2026-03-01T10:00:01Z',
      end_user: 'u',
    },
    traces: [{ model: 'gpt-4o', messages: [{ role: 'user', content: content as string }], output: 'o' }],
  };
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = { inner: value };
  return value;
}

describe('a tag named __proto__', () => {
  it('is refused by name, not dropped from the wire: nothing sent', async () => {
    const params = withContent('hi');
    const interaction = { ...params.interaction, tags: JSON.parse('{"__proto__": "x", "plan": "pro"}') as Record<string, string> };
    const error = await rejection(nebuly.interactions.send({ ...params, interaction }));

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['interaction.tags.__proto__']);
    expect((error as ValidationError).message).toMatch(/may not be named `__proto__`/);
    expect(service.requests).toHaveLength(0);
  });
});

describe('huge invalid input', () => {
  it('130,000 invalid users: one short ValidationError that keeps every issue', async () => {
    const users = Array.from({ length: 130_000 }, () => ({ end_user: 5, tags: {}, active_from: '2026-01-01' }));
    const error = await rejection(nebuly.eligibleUsers.insert({ users } as never));

    expect(error).toBeInstanceOf(ValidationError);
    const { issues, message } = error as ValidationError;
    expect(issues).toHaveLength(130_000);
    expect(issues[129_999]?.pathText).toBe('users[129999].end_user');
    expect(message.length).toBeLessThan(1_000);
    expect(message).toMatch(/^Invalid params: users\[0\]\.end_user must be a string \(got number\); .*; and 129990 more$/);
    expect(service.requests).toHaveLength(0);
  });

  it('keeps issue order and paths across nested lists past their bound', () => {
    const outputs = Array.from({ length: 250 }, (_, index) => (index % 2 === 0 ? index : 'ok'));
    const retrieval = thrown(() =>
      interactionParams({
        ...withContent('x').interaction,
        traces: [{ source: 's', input: 'q', outputs: outputs as string[] }],
      }),
    ) as ValidationError;
    expect(retrieval.issues.map((issue) => issue.pathText)).toEqual(
      outputs.flatMap((value, index) => (typeof value === 'number' ? [`traces[0].outputs[${index}]`] : [])),
    );
  });
});

describe('huge answers', () => {
  it('a 200 listing 130,000 malformed users is one short UnexpectedResponseError, not a RangeError', async () => {
    service.answer(() => HttpResponse.json({ users: Array.from({ length: 130_000 }, () => ({ end_user: 5 })) }));
    const error = await rejection(nebuly.eligibleUsers.list());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).issues.length).toBeGreaterThanOrEqual(130_000);
    expect((error as Error).message.length).toBeLessThan(1_000);
    expect((error as Error).message).toMatch(/; and \d+ more$/);
  });

  it('a 422 with 50,000 validation details makes a short message', async () => {
    const detail = Array.from({ length: 50_000 }, (_, index) => ({ loc: ['body', 'users', index], msg: 'bad', type: 'x' }));
    service.answer(() => HttpResponse.json({ detail }, { status: 422 }));
    const error = await rejection(nebuly.eligibleUsers.delete({ users: ['u'] }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toBe(
      `DELETE /api/external/eligible-users answered 422: ${detail
        .slice(0, 10)
        .map((_, index) => `users[${index}]: bad`)
        .join('; ')}; and 49990 more`,
    );
  });
});

describe('content that JSON cannot carry', () => {
  it('a BigInt inside message content rejects as ValidationError naming it', async () => {
    const error = await rejection(nebuly.interactions.send(withContent([{ type: 'data', value: 10n }])));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual([
      'traces[0].messages[0].content[0].value',
    ]);
    expect(service.requests).toHaveLength(0);
  });

  it('a circular object inside message content rejects as ValidationError naming it', async () => {
    const part: Record<string, unknown> = { type: 'data' };
    part.self = { back: part };
    const error = await rejection(nebuly.interactions.send(withContent([part])));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('traces[0].messages[0].content[0].self.back');
    expect((error as ValidationError).message).toContain('circular');
  });

  it(`content nested past ${MAX_JSON_DEPTH} levels is refused, and up to it is sent as given`, async () => {
    const deep = await rejection(nebuly.interactions.send(withContent([{ deep: nested(100_000) }])));
    expect(deep).toBeInstanceOf(ValidationError);
    expect((deep as ValidationError).message).toContain(`nests deeper than ${MAX_JSON_DEPTH} levels`);

    // The depth counts from the content: `content[0].deep` is two levels down already.
    const deepest = [{ deep: nested(MAX_JSON_DEPTH - 2) }];
    await nebuly.interactions.send(withContent(deepest));
    const sent = JSON.parse(service.requests[0]?.body ?? '') as SendInteractionParams;
    expect(sent.traces[0]).toMatchObject({ messages: [{ content: deepest }] });
    expect(await rejection(nebuly.interactions.send(withContent([{ deep: nested(MAX_JSON_DEPTH - 1) }])))).toBeInstanceOf(
      ValidationError,
    );
  });

  it('sends content as JSON.stringify would: toJSON, boxed values, an own __proto__ key', async () => {
    const part = JSON.parse('{"type": "text", "meta": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    Object.assign(part, { when: new Date(0), text: Object('hi') as string });
    await nebuly.interactions.send(withContent([part]));
    expect(service.requests[0]?.body).toContain(
      '"content":[{"type":"text","meta":{"__proto__":{"polluted":true}},"when":"1970-01-01T00:00:00.000Z","text":"hi"}]',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('params that throw when read', () => {
  const getterThatThrows = {
    interaction: withContent('x').interaction,
    get traces(): never {
      throw new Error('getter exploded');
    },
  };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();

  it('a getter that throws rejects as ValidationError naming the field', async () => {
    const error = await rejection(nebuly.interactions.send(getterThatThrows as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['traces']);
  });

  it('a revoked Proxy rejects as ValidationError, in resources and builders', async () => {
    expect(await rejection(nebuly.eligibleUsers.insert(revoked.proxy as never))).toBeInstanceOf(ValidationError);
    expect(await rejection(nebuly.interactions.send({ ...withContent('x'), traces: [revoked.proxy] } as never))).toSatisfy(
      (error) => error instanceof ValidationError && error.issues[0]?.pathText === 'traces[0]',
    );
    expect(thrown(() => interactionParams(revoked.proxy as never))).toBeInstanceOf(ValidationError);
    expect(thrown(() => interactionParams(getterThatThrows as never))).toBeInstanceOf(ValidationError);
  });
});

describe('builders given the wrong types', () => {
  it('usdToMicroDollars(1n) throws ValidationError naming usd', () => {
    const error = thrown(() => usdToMicroDollars(1n as unknown as number));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(
      'Invalid argument: usd must be a finite number of dollars, zero or more (got bigint)',
    );
  });

  it('usdToMicroDollars of a revoked Proxy throws ValidationError, not the Proxy\'s TypeError', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(thrown(() => usdToMicroDollars(proxy as unknown as number))).toBeInstanceOf(ValidationError);
  });

  it("hashEndUser('x', null) rejects with ValidationError naming options", async () => {
    const error = await rejection(hashEndUser('x', null as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['options']);
  });

  it('hashEndUser with a salt getter that throws rejects with ValidationError naming salt', async () => {
    const options = {
      get salt(): string {
        throw new Error('no salt');
      },
    };
    const error = await rejection(hashEndUser('x', options));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.pathText)).toEqual(['salt']);
  });
});
