// Formatting for demo.ts: turns what the reference server stored into a short report.
import type { UserRecordResponse } from '../src/index.js';
import type { RecordedRequest, StoredInteraction } from '../src/reference-server/index.js';

/** Prints a numbered section title. */
export function section(title: string): void {
  console.log(process.stdout.isTTY ? `\n\x1b[1m${title}\x1b[0m` : `\n${title}`);
}

/** Prints one indented line. */
export function line(text: string): void {
  console.log(`  ${text}`);
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function table(rows: string[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  for (const row of rows) line(row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
}

function tagText(tags: Record<string, unknown>): string {
  const entries = Object.entries(tags);
  return entries.length === 0 ? '-' : entries.map(([key, value]) => `${key}=${String(value)}`).join(' ');
}

/** Names end users by who they are in the demo, with the start of the hash actually sent. */
export type UserNames = ReadonlyMap<string, string>;

function who(names: UserNames, endUser: string): string {
  return `${names.get(endUser) ?? '?'} (${endUser.slice(0, 8)}…)`;
}

/** The users as the service listed them, one row each. */
export function printUsers(users: readonly UserRecordResponse[], names: UserNames): void {
  table([
    ['end_user', 'tags', 'access'],
    ...users.map((user) => [
      who(names, user.end_user),
      tagText(user.tags),
      `${user.active_from} → ${user.active_to ?? 'open'}`,
    ]),
  ]);
}

function stepKind(step: StoredInteraction['trace'][number]): string {
  if ('source' in step) return 'retrieval';
  if ('messages' in step) return `llm ${step.model}`;
  return 'embedding';
}

/** The interactions as stored, one row each, then their LLM cost. */
export function printInteractions(interactions: readonly StoredInteraction[], names: UserNames): void {
  table([
    ['#', 'via', 'user', 'input', 'steps', 'feedback', 'tags'],
    ...interactions.map((stored, index) => [
      String(index + 1),
      stored.source,
      who(names, stored.end_user),
      `"${clip(stored.input, 32)}"`,
      stored.trace.map(stepKind).join(' → ') || '-',
      stored.feedback_actions.map((action) => action.slug + (action.value === undefined ? '' : `:${action.value}`)).join(', ') || '-',
      tagText(stored.tags),
    ]),
  ]);
  const microDollars = interactions
    .flatMap((stored) => stored.trace)
    .reduce((total, step) => total + ('cost' in step ? (step.cost ?? 0) : 0), 0);
  line(`LLM cost reported in the traces: ${microDollars} micro-dollars ($${(microDollars / 1e6).toFixed(6)})`);
}

/** The requests the server received, one line each. */
export function printRequests(requests: readonly RecordedRequest[]): void {
  const encoder = new TextEncoder();
  table(requests.map((request) => [request.method, request.path, String(request.status), `${encoder.encode(request.body).byteLength} B`]));
}
