/** The CLI as users run it: the real bin in a child process, against a reference server of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference-server/node.js';
import { REFERENCE_PATHS } from '../../src/reference-server/routes.js';
import type { StoredUser } from '../../src/reference-server/stored.js';

const BIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
export const KEY = 'secret-canary-nebuly-cli-key';
export const PROJECT = 'cli-project';
// Each test starts the bin a few times, concurrently with the others; on a busy machine
// one start can take seconds.
export const TIMEOUT_MS = 60_000;
export const USERS = REFERENCE_PATHS.eligibleUsers;
export const CONVERSATION = REFERENCE_PATHS.conversation;

let dir: string;
// Closed after all tests: with concurrent tests, a per-test hook may run at another's end.
const servers: ReferenceServer[] = [];

/** Makes the file's scratch folder before its tests, and closes its servers after them. */
export function useWorlds(): void {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nebuly-cli-'));
  });
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  });
}

/** A path in the file's scratch folder. */
export function scratchPath(name: string): string {
  return join(dir, name);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A reference server of its own for one test, so that tests run concurrently: each child
 * process spends most of its time starting up.
 */
export async function world() {
  const server = await createReferenceServer({ apiKeys: { [KEY]: PROJECT }, maxRecordedRequests: 10_000 });
  servers.push(server);
  const prefix = randomUUID();

  /** Starts the real bin from its TypeScript source, as a user runs the built one; `done` when it exits. */
  function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
    const { child, done } = run(BIN, args, { NEBULY_API_KEY: KEY, NEBULY_BASE_URL: server.url, ...env });
    return {
      child,
      done: done.then((result) => {
        // Whatever happened, the key is never printed, and no failure is a stack trace.
        expect(result.stdout + result.stderr).not.toContain(KEY);
        expect(result.stderr).not.toMatch(/\n\s+at /);
        return result;
      }),
    };
  }

  /** Runs the real bin and resolves once it exits. */
  function nebuly(args: string[], env: Record<string, string> = {}): Promise<Run> {
    return start(args, env).done;
  }

  return {
    server,
    nebuly,
    start,
    async file(name: string, content: string): Promise<string> {
      const path = join(dir, `${prefix}-${name}`);
      await writeFile(path, content);
      return path;
    },
    stored: () => server.store.listUsers(PROJECT),
    writes: () => server.requests.all().filter((request) => request.method !== 'GET'),
  };
}

/** Runs a TypeScript script in a child process, with the environment less NEBULY_* plus `env`. */
export function run(script: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run> } {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NEBULY_')));
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...base, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const DEPARTMENTS = ['sales', 'support', 'engineering', 'legal', 'finance'];

/** `count` users as CSV rows, and as the reference server would store them. */
export function usersCsv(count: number, from = 0): { csv: string; stored: StoredUser[] } {
  const stored: StoredUser[] = [];
  const rows = ['end_user,active_from,active_to,tag.department,tag.country'];
  for (let i = from; i < from + count; i += 1) {
    const department = DEPARTMENTS[i % DEPARTMENTS.length] ?? 'sales';
    const activeTo = i % 7 === 0 ? '2026-12-31' : null;
    rows.push(`user-${i},2026-01-01,${activeTo ?? ''},${department},${i % 2 === 0 ? 'it' : ''}`);
    stored.push({
      end_user: `user-${i}`,
      tags: i % 2 === 0 ? { department, country: 'it' } : { department },
      active_from: '2026-01-01',
      active_to: activeTo,
    });
  }
  return { csv: `${rows.join('\n')}\n`, stored };
}

/** A dead letter: one conversation's request body, as the recorder's dead-letter file holds it. */
export function conversation(endUser: string, input = 'Hi'): string {
  const interaction = { input, output: 'Hello!', time_start: '2026-01-01T10:00:00.000Z', time_end: '2026-01-01T10:00:01.000Z' };
  return JSON.stringify({ conversation: { end_user: endUser, interactions: [interaction] } });
}
