import { formatPath, type Issue, listBounded } from '../utils/issues.js';
import { readEnv } from './env.js';
import { nearestName } from './nearest.js';

/**
 * The one way options are checked: each group of options (the client's, the recorder's,
 * a call's) is a table of {@link OptionSpec}s, and {@link checkOptions} reads a group
 * against its table once, collecting every problem as an `Issue` at the option's path
 * (`recorder.leaseMs`). Which error the issues become is the caller's one rule:
 * {@link constructionError} (a `TypeError`) for what is wrong when a client is made,
 * a `ValidationError` for what is wrong with one call.
 */

/**
 * Where an option sits.
 *
 * @example
 * ```ts
 * const path: OptionPath = ['recorder', 'leaseMs'];
 * ```
 */
export type OptionPath = readonly (string | number)[];

/**
 * Where a check is, and where it puts what it finds.
 *
 * @example
 * ```ts
 * const context: CheckContext = { path: ['recorder'], issues: [] };
 * ```
 */
export interface CheckContext {
  readonly path: OptionPath;
  readonly issues: Issue[];
}

/**
 * Records a problem of the option at `context.path`.
 *
 * @example
 * ```ts
 * if (typeof value !== 'string') problem(context, 'must be a string');
 * ```
 */
export function problem(context: CheckContext, message: string): void {
  context.issues.push({ path: [...context.path], message, code: 'custom' });
}

/**
 * `null`, or the type of `value`, for messages: never the value.
 *
 * @example
 * ```ts
 * typeName(null); // 'null'
 * typeName('k');  // 'string'
 * ```
 */
export function typeName(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/**
 * One option: how a given value is checked, and where it comes from when absent (an
 * environment variable, then a default). `R` is what the option resolves to: `T`, or
 * `T | undefined` while it has no default.
 *
 * @example
 * ```ts
 * const region = text().env('NEBULY_REGION').or('us'); // OptionSpec<string, string>
 * ```
 */
export class OptionSpec<T, R = T | undefined> {
  /**
   * @param check Called with a value that is not `undefined` (or with any, when
   * `checksAbsent`): the value to use, after recording through `problem` what is wrong
   * with it (the result is then unused).
   */
  constructor(
    readonly check: (value: unknown, context: CheckContext) => T,
    readonly envName?: string,
    readonly fallback?: { value: T },
    readonly checksAbsent = false,
  ) {}

  /** The same option, read from the environment variable `name` when it is not given. */
  env(name: string): OptionSpec<T, R> {
    return new OptionSpec<T, R>(this.check, name, this.fallback, this.checksAbsent);
  }

  /** The same option, `value` when neither it nor its environment variable is given. */
  or(value: T): OptionSpec<T, T> {
    return new OptionSpec<T, T>(this.check, this.envName, { value }, this.checksAbsent);
  }
}

/**
 * A table of options by name: one group.
 *
 * @example
 * ```ts
 * const specs: OptionSpecs = { region: text().or('us') };
 * ```
 */
export type OptionSpecs = Readonly<Record<string, OptionSpec<unknown, unknown>>>;

/**
 * What a group of options resolves to, option by option.
 *
 * @example
 * ```ts
 * type Privacy = Resolved<typeof PRIVACY_OPTIONS>; // { mask: Mask | undefined; sampleRate: number; … }
 * ```
 */
export type Resolved<S extends OptionSpecs> = { -readonly [K in keyof S]: S[K] extends OptionSpec<unknown, infer R> ? R : never };

/**
 * A nested group of options (`recorder`), checked against its own table; absent, every
 * option of it takes its default.
 *
 * @example
 * ```ts
 * const recorder = group(RECORDER_OPTIONS);
 * ```
 */
export function group<S extends OptionSpecs>(specs: S, noun = 'an option'): OptionSpec<Resolved<S>, Resolved<S>> {
  // Absent, the group is checked as `{}`: each of its options then takes its default.
  return new OptionSpec<Resolved<S>, Resolved<S>>((value, context) => checkOptions(value, specs, context, noun), undefined, undefined, true);
}

/** An option name that is a plain word (no digit: keys have them), safe to repeat in a message. */
const QUOTABLE_NAME = /^[A-Za-z_$]{1,40}$/;

/** Reads the own names of `given`, recording each that is not in `known`, with the nearest known one. */
function checkNames(given: object, known: readonly string[], context: CheckContext, noun: string): boolean {
  let names: string[];
  try {
    names = Object.keys(given);
  } catch {
    problem(context, 'could not be read (a getter or Proxy threw)');
    return false;
  }
  const quote = (name: string) => `\`${formatPath([...context.path, name])}\``;
  for (const name of names) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    // A typo of a known name, or a plain word, is named; anything else may be a key
    // pasted as an object's name, and is described instead.
    if (nearest !== undefined) problem({ ...context, path: [...context.path, name] }, `is not ${noun}; did you mean ${quote(nearest)}?`);
    else if (QUOTABLE_NAME.test(name)) {
      problem({ ...context, path: [...context.path, name] }, `is not ${noun}; ${noun.replace(/^an? /, 'the ')}s are ${known.map(quote).join(', ')}`);
    } else problem(context, `has an unknown option (a ${name.length}-character name, not shown)`);
  }
  return true;
}

/**
 * Checks a group of options against its table: `undefined` is an empty group; an
 * unknown name is a problem that suggests the nearest known one; each known option is
 * read once (a getter or Proxy that throws is a problem, not a throw), taken from its
 * environment variable or default when absent, and checked. Problems go to
 * `context.issues`, each at its option's path; the result is meant only when none was
 * found.
 *
 * @example
 * ```ts
 * const issues: Issue[] = [];
 * const options = checkOptions(given, CLIENT_OPTIONS, { path: [], issues });
 * if (issues.length > 0) throw constructionError(issues);
 * ```
 */
export function checkOptions<S extends OptionSpecs>(given: unknown, specs: S, context: CheckContext, noun = 'an option'): Resolved<S> {
  const resolved: Record<string, unknown> = {};
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    problem(context, `must be an object (got ${typeName(given)})`);
    return resolved as Resolved<S>;
  }
  const options = (given ?? {}) as Record<string, unknown>;
  if (!checkNames(options, Object.keys(specs), context, noun)) return resolved as Resolved<S>;
  for (const [name, spec] of Object.entries(specs)) {
    const at = { ...context, path: [...context.path, name] };
    let value: unknown;
    try {
      value = options[name];
    } catch {
      problem(at, 'could not be read (a getter or Proxy threw)');
      continue;
    }
    if (value === undefined && spec.envName !== undefined) value = readEnv(spec.envName);
    resolved[name] = value !== undefined || spec.checksAbsent ? spec.check(value, at) : spec.fallback?.value;
  }
  return resolved as Resolved<S>;
}

/**
 * The one error of options that are wrong when a client is made: a `TypeError`, as for
 * any argument of the wrong type, whose message lists every problem at its path and
 * never a value (`nebuly-client: \`recorder.leaseMs\` must be a number, 1 or more`).
 * A call's options are a `ValidationError` instead, like its params.
 *
 * @example
 * ```ts
 * throw constructionError([{ path: ['timeoutMs'], message: 'must be …', code: 'custom' }]);
 * ```
 */
export function constructionError(issues: readonly Issue[]): TypeError {
  const listed = listBounded(issues, ({ path, message }) => `\`${path.length === 0 ? 'options' : formatPath(path)}\` ${message}`);
  return new TypeError(`nebuly-client: ${listed}`);
}
