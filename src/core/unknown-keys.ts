import type * as z from 'zod/mini';
import type { Issue } from '../utils/issues.js';
import { traceStepKind, traceStepSchema } from '../schemas/traces.js';

/** The parts of a zod schema's definition this walk reads (zod/mini's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
  options?: readonly Schema[];
  left?: Schema;
  right?: Schema;
  valueType?: Schema;
  in?: Schema;
  out?: Schema;
  getter?: () => Schema;
}

type Schema = { _zod: { def: Def } };

/** Definitions that only wrap another schema: the walk goes through them. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** Definitions whose keys or items the walk reads. */
const STRUCTURAL = new Set(['object', 'array', 'union', 'intersection', 'record', 'lazy', 'pipe', ...WRAPPERS]);

/** How deep the walk goes: wire objects nest a few levels; a cycle in the input must not hang it. */
const MAX_DEPTH = 32;

/**
 * Every key of `value` that its schema does not know, at its path, with the field most
 * likely meant (`traces[0].inputTokens is not a field; did you mean input_tokens?`). zod
 * drops such keys without a word, so a misspelled field would be lost in silence; the
 * typed calls and the builders refuse them instead (`parseOrThrow`). Records (tags,
 * metadata) take any key; a loose object's unknown keys are its own. A value zod could
 * not read is left to zod's issues.
 *
 * @example
 * ```ts
 * unknownKeys(llmStepSchema, { model: 'm', messages: [], output: 'o', inputTokens: 5 }); // [{ path: ['inputTokens'], message: 'is not a field; did you mean `input_tokens`?', … }]
 * ```
 */
export function unknownKeys(schema: z.ZodMiniType, value: unknown): Issue[] {
  const issues: Issue[] = [];
  try {
    walk(schema as unknown as Schema, value, [], issues, 0);
  } catch {
    // A getter or a Proxy that throws: zod names it.
  }
  return issues;
}

function walk(schema: Schema, value: unknown, path: (string | number)[], issues: Issue[], depth: number): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  // A trace step is told apart by its keys, then checked as that kind (schemas/traces.ts).
  if ((schema as unknown) === traceStepSchema) return walk(traceStepKind(value) as unknown as Schema, value, path, issues, depth);
  const def = structural(schema)._zod.def;
  switch (def.type) {
    case 'array':
      if (Array.isArray(value)) value.forEach((item, index) => walk(def.element as Schema, item, [...path, index], issues, depth + 1));
      return;
    case 'record':
      if (!Array.isArray(value)) for (const [key, item] of Object.entries(value)) walk(def.valueType as Schema, item, [...path, key], issues, depth + 1);
      return;
    case 'object':
    case 'union':
    case 'intersection': {
      if (Array.isArray(value)) return;
      const shapes = objectShapes(schema);
      // A loose object, or a union with a member that is not an object: its keys are not all known here.
      if (shapes === undefined) return;
      for (const [key, item] of Object.entries(value)) {
        const field = fieldOf(shapes, key);
        if (field !== undefined) walk(field, item, [...path, key], issues, depth + 1);
        else if (!namedByZod(shapes, key, value)) issues.push(unknownKeyIssue([...path, key], key, shapes));
      }
      return;
    }
    default:
      return;
  }
}

/** `schema` without the wrappers around it; a pipe by its input, or its output when the input checks nothing of the structure. */
function structural(schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < MAX_DEPTH; hops += 1) {
    const def = current._zod.def;
    if (WRAPPERS.has(def.type)) current = def.innerType as Schema;
    else if (def.type === 'lazy') current = (def.getter as () => Schema)();
    else if (def.type === 'pipe') current = STRUCTURAL.has((def.in as Schema)._zod.def.type) ? (def.in as Schema) : (def.out as Schema);
    else return current;
  }
  return current;
}

/**
 * The shapes an object of `schema` may have: one for an object, every member's for a
 * union or an intersection; `undefined` when some member takes keys this walk cannot
 * name (a loose object, a record, anything but an object).
 */
function objectShapes(schema: Schema): Record<string, Schema>[] | undefined {
  const def = structural(schema)._zod.def;
  if (def.type === 'object') {
    const loose = def.catchall !== undefined && def.catchall._zod.def.type !== 'never';
    return loose ? undefined : [def.shape as Record<string, Schema>];
  }
  const members = def.type === 'union' ? (def.options ?? []) : def.type === 'intersection' ? [def.left as Schema, def.right as Schema] : undefined;
  if (members === undefined) return undefined;
  const shapes: Record<string, Schema>[] = [];
  for (const member of members) {
    const memberShapes = objectShapes(member);
    if (memberShapes === undefined) return undefined;
    shapes.push(...memberShapes);
  }
  return shapes;
}

function fieldOf(shapes: readonly Record<string, Schema>[], key: string): Schema | undefined {
  return shapes.find((shape) => Object.hasOwn(shape, key))?.[key];
}

/**
 * Whether zod already names `key`: the camelCase spelling of a required field that is
 * missing, which its issue names (`end_user is required (got \`endUser\`: did you mean
 * \`end_user\`?)`). An optional field's camelCase spelling zod says nothing of.
 */
function namedByZod(shapes: readonly Record<string, Schema>[], key: string, value: object): boolean {
  const snake = snakeCase(key);
  const field = snake === key ? undefined : fieldOf(shapes, snake);
  return field !== undefined && field._zod.def.type !== 'optional' && (value as Record<string, unknown>)[snake] === undefined;
}

/**
 * `endUser` → `end_user`: the wire's names are snake_case, JavaScript's camelCase. The
 * same line as in schemas/issue-messages.ts, not taken from there for the reason given at
 * {@link unknownKeyIssue}: that module is in the first-loaded bundle.
 */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The issue of an unknown `key`, with the field most likely meant: its snake_case
 * spelling (`inputTokens` → `input_tokens`), or its plural or singular (`tag` → `tags`).
 * Not by edit distance (`nearestName`): that lives in the first-loaded bundle, and taking
 * it from a lazy module made the bundle export it, past its size limit.
 */
function unknownKeyIssue(path: (string | number)[], key: string, shapes: readonly Record<string, Schema>[]): Issue {
  const nearest = [snakeCase(key), `${key}s`, key.replace(/s$/, '')].find((name) => name !== key && fieldOf(shapes, name) !== undefined);
  return { path, message: nearest === undefined ? 'is not a field' : `is not a field; did you mean \`${nearest}\`?`, code: 'unrecognized_keys' };
}
