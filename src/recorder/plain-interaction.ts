/**
 * The usual ended interaction, accepted without zod: the caller's part (input, output,
 * own tags, feedback actions, steps) checked against the wire types written out by hand,
 * and copied as the wire schema would output it. It only ever accepts: anything it is
 * not sure of (a failure, but also a getter, a `toJSON`, a Date in content, an odd
 * prototype, a `__proto__` key) it leaves to `payload-issues.ts`, which decides with the
 * schema itself and says what is wrong. test/fuzz/plain-interaction.test.ts holds that
 * what it accepts, the schema accepts, with the same output.
 */
import { checkFeedbackAction, Found, MAX_JSON_DEPTH } from '../schemas/plain-checks.js';
import {
  EMBEDDING_STEP_FIELDS,
  LLM_STEP_FIELDS,
  MESSAGE_ROLES,
  RETRIEVAL_STEP_FIELDS,
  type WireFields,
} from '../schemas/wire-fields.js';
import type { CheckedPart } from './interaction-parts.js';
import type { InteractionRecord } from './record.js';

/** Thrown inside the check for anything it leaves to the schema; never leaves this module. */
const UNSURE = Symbol('unsure');

type Check = (value: unknown) => unknown;

/** An object literal, or one made by `Object.create(null)`: no class, no Proxy trap to fear. */
function plainObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw UNSURE;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw UNSURE;
  return value as Record<string, unknown>;
}

function plainArray(value: unknown): unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) throw UNSURE;
  return value;
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw UNSURE;
  return value;
}

function nonEmptyText(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw UNSURE;
  return value;
}

/** `nonNegativeInt`: a safe integer, zero or more. */
function count(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw UNSURE;
  return value;
}

const ROLES: ReadonlySet<unknown> = new Set(MESSAGE_ROLES);

function role(value: unknown): unknown {
  if (!ROLES.has(value)) throw UNSURE;
  return value;
}

function listOf(item: Check): Check {
  return (value) => plainArray(value).map((entry) => item(entry));
}

/**
 * An object of `fields`, as zod outputs one: the fields in their order, a field kept
 * when given or present as a key, unknown keys left out.
 */
function objectOf(fields: WireFields, checks: Readonly<Record<string, Check>>): Check {
  const names = Object.keys(fields);
  return (value) => {
    const given = plainObject(value);
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const field = given[name];
      if (field === undefined) {
        if (fields[name] !== 'value?') throw UNSURE;
        if (name in given) out[name] = undefined;
        continue;
      }
      out[name] = (checks[name] as Check)(field);
    }
    return out;
  };
}

/**
 * JSON data as `jsonValue` copies it, when nothing in it needs that copy's care: plain
 * arrays and objects, within {@link MAX_JSON_DEPTH}, no cycle, no `toJSON`, no BigInt,
 * no `__proto__` key.
 */
function jsonData(value: unknown, depth: number, above: unknown[]): unknown {
  if (typeof value === 'bigint') throw UNSURE;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_JSON_DEPTH || above.includes(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') throw UNSURE;
  above.push(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    const items = plainArray(value);
    const out = new Array<unknown>(items.length);
    for (let index = 0; index < items.length; index += 1) out[index] = jsonData(items[index], depth + 1, above);
    copy = out;
  } else {
    const object = plainObject(value);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      if (key === '__proto__') throw UNSURE;
      out[key] = jsonData(object[key], depth + 1, above);
    }
    copy = out;
  }
  above.pop();
  return copy;
}

/** A message's content: a string, or content parts (objects of JSON data). */
function content(value: unknown): unknown {
  if (typeof value === 'string') return value;
  const parts = plainArray(value);
  if (typeof (parts as { toJSON?: unknown }).toJSON === 'function') throw UNSURE;
  return parts.map((part) => {
    const copy = jsonData(part, 1, [parts]);
    if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) throw UNSURE;
    return copy;
  });
}

const message = objectOf({ role: 'id', content: 'value' }, { role, content });
const steps = [
  objectOf(RETRIEVAL_STEP_FIELDS, { source: nonEmptyText, input: text, outputs: listOf(text) }),
  objectOf(LLM_STEP_FIELDS, {
    model: nonEmptyText,
    messages: listOf(message),
    output: text,
    input_tokens: count,
    output_tokens: count,
    cost: count,
  }),
  objectOf(EMBEDDING_STEP_FIELDS, { model: nonEmptyText, input: text, input_tokens: count }),
] as const;

/** A step, told apart by its keys as the schema tells it: `source`, else `messages`, else embedding. */
function step(value: unknown): unknown {
  const given = plainObject(value);
  return ('source' in given ? steps[0] : 'messages' in given ? steps[1] : steps[2])(given);
}

function feedbackAction(value: unknown): unknown {
  const given = plainObject(value);
  const found = new Found(given);
  const checked = checkFeedbackAction({ slug: given.slug, text: given.text, value: given.value }, [], found);
  if (checked === undefined) throw UNSURE;
  const out: Record<string, unknown> = { slug: checked.slug };
  for (const name of ['text', 'value'] as const) if (given[name] !== undefined || name in given) out[name] = given[name];
  return out;
}

/**
 * The interaction's own tags, copied: a plain object of string values, no symbol key, no
 * `__proto__`; what `checkTags` accepts of one, without its issue collector and key lists
 * (a third of what checking an interaction allocated).
 */
function ownTags(value: unknown): Record<string, string> {
  const given = plainObject(value);
  if (Object.getOwnPropertySymbols(given).length > 0) throw UNSURE;
  const tags: Record<string, string> = {};
  for (const key in given) {
    if (!Object.prototype.hasOwnProperty.call(given, key) || key === '__proto__') throw UNSURE;
    tags[key] = text(given[key]);
  }
  return tags;
}

/**
 * The caller's part of `record` as the wire schema outputs it, when it is valid and
 * plainly so; `undefined` when the schema has to decide (`payload-issues.ts`).
 *
 * @example
 * ```ts
 * const part = plainPart(record); // undefined: the schema decides (payload-issues.ts)
 * ```
 */
export function plainPart(record: InteractionRecord): CheckedPart | undefined {
  try {
    return {
      input: text(record.input),
      output: text(record.output),
      tags: record.tags === undefined ? undefined : ownTags(record.tags),
      feature_flag: record.featureFlag === undefined ? undefined : (listOf(nonEmptyText)(record.featureFlag) as string[]),
      feedback_actions: listOf(feedbackAction)(record.feedback ?? []) as CheckedPart['feedback_actions'],
      trace: listOf(step)(record.trace) as CheckedPart['trace'],
    };
  } catch {
    // UNSURE, or a read that threw: the schema decides, and names what is wrong.
    return undefined;
  }
}
