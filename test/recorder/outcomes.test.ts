import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../helpers/local-server.js';

// The contract of public-api.md, "Outcomes, by contract", checked from outside a real
// process that exits the moment `await shutdown()` resolves: every conversation (every
// interaction, in 'interaction' mode) ended before it is delivered once, or was handed to
// onError with its payload and Idempotency-Key before it resolved; the report counts them.

const SCRIPT = fileURLToPath(new URL('./fixtures/exit-after-shutdown.ts', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nebuly-outcomes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Service = 'hangs' | 'answers 503' | 'stores, then times out' | 'accepts';
type Delivery = 'conversation' | 'interaction';

/** The units a body holds: conversations by end user, or interactions by input. */
function unitsOf(body: string, delivery: Delivery): string[] {
  const parsed = JSON.parse(body) as {
    conversation?: { end_user: string; interactions: { input: string }[] };
    interaction?: { input: string };
  };
  if (delivery === 'interaction') return parsed.interaction === undefined ? [] : [parsed.interaction.input];
  return parsed.conversation === undefined ? [] : [parsed.conversation.end_user];
}

async function service(kind: Service, delivery: Delivery) {
  const answered = new Set<string>();
  const keys = new Map<string, Set<string>>();
  const server: LocalServer = await startLocalServer((request, res, index) => {
    const units = unitsOf(request.body, delivery);
    for (const unit of units) {
      const seen = keys.get(unit) ?? new Set<string>();
      seen.add(String(request.headers['idempotency-key']));
      keys.set(unit, seen);
    }
    const accept = () => {
      for (const unit of units) answered.add(unit);
      json(res, 202, { status: 'accepted' });
    };
    if (kind === 'accepts' || index % 3 === 0) accept();
    else if (kind === 'answers 503') json(res, 503, { detail: 'unavailable' });
    else if (kind === 'stores, then times out') setTimeout(() => res.destroyed || json(res, 202, {}), 5_000).unref();
    // 'hangs': never answered.
  });
  return { server, answered, keys };
}

interface Line {
  name?: string;
  message?: string;
  undelivered?: { payload: string; key?: string }[];
  report?: { delivered: number; failed: number; dropped: number };
}

async function runProgram(args: { service: Service; delivery: Delivery; conversations: number; timeoutMs: number; store?: 'memory' | 'slow' }) {
  const { server, answered, keys } = await service(args.service, args.delivery);
  const file = join(dir, `${args.service.replaceAll(/\W/g, '-')}-${args.delivery}-${args.store ?? 'memory'}.jsonl`);
  try {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', SCRIPT, server.baseUrl, file, String(args.conversations), args.delivery, String(args.timeoutMs), args.store ?? 'memory'],
      { timeout: 120_000 },
    );
  } finally {
    await server.close();
  }
  const lines = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text) as Line);
  return { lines, answered, keys };
}

const CASES: { service: Service; delivery: Delivery; conversations: number; timeoutMs: number; store?: 'slow' }[] = [
  // A short deadline: most conversations are still being built when it passes.
  { service: 'hangs', delivery: 'conversation', conversations: 3_000, timeoutMs: 100 },
  { service: 'answers 503', delivery: 'conversation', conversations: 300, timeoutMs: 1_000 },
  { service: 'stores, then times out', delivery: 'conversation', conversations: 100, timeoutMs: 2_000 },
  { service: 'hangs', delivery: 'interaction', conversations: 300, timeoutMs: 300 },
  // A store whose calls take longer than the deadline.
  { service: 'accepts', delivery: 'conversation', conversations: 50, timeoutMs: 200, store: 'slow' },
];

describe('a program that exits right after `await shutdown()`', { timeout: 180_000 }, () => {
  it.each(CASES)('loses nothing when the service $service (delivery $delivery, store $store)', async (args) => {
    const { lines, answered, keys } = await runProgram(args);
    const last = lines.at(-1);
    // shutdown() resolved, and nothing was reported after it (the exit guard has nothing to say).
    expect(last?.report).toBeDefined();
    const report = last?.report as NonNullable<Line['report']>;

    const units = Array.from({ length: args.conversations }, (_, index) =>
      args.delivery === 'interaction' ? [`q-${index}-0`, `q-${index}-1`] : [`u-${index}`],
    ).flat();
    const reported = new Map<string, string | undefined>();
    for (const { undelivered = [] } of lines.slice(0, -1)) {
      for (const { payload, key } of undelivered) {
        for (const unit of unitsOf(payload, args.delivery)) reported.set(unit, key);
      }
    }
    for (const unit of units) {
      // Delivered, or reported with its payload: never neither.
      expect(answered.has(unit) || reported.has(unit), unit).toBe(true);
      // Every send of one unit carried one key: the service stores it once.
      expect(keys.get(unit)?.size ?? 0, unit).toBeLessThanOrEqual(1);
      if (!reported.has(unit)) continue;
      // Reported with the key it was (or would have been) sent with: replaying it is harmless.
      const key = reported.get(unit);
      expect(key, unit).toEqual(expect.stringMatching(/\S/));
      const sent = keys.get(unit);
      if (sent !== undefined) expect(sent.has(key as string), unit).toBe(true);
    }
    // The report counts each exactly once: nothing had met its fate at the call.
    expect(report.delivered + report.failed + report.dropped).toBe(units.length);
    expect(report.failed + report.dropped).toBe(reported.size);
    expect(lines.some((line) => /unsent_at_exit|not sent/.test(line.message ?? ''))).toBe(false);
  });
});
