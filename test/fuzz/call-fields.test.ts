/**
 * The readers of the calls on every interaction's path (src/recorder/call-fields.ts),
 * written out for speed, against the table readers they stand for (`fieldsOf`,
 * `fieldReaderOf` with the wire tables): on any value, the same record, key order,
 * absent keys and UNREADABLE marks included, and each field read the same number of times.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOutput, interactionFields, llmFields } from '../../src/recorder/call-fields.js';
import { copyArray, copyPlainObject, fieldReaderOf, fieldsOf, readSafely } from '../../src/recorder/fields.js';
import { LLM_STEP_FIELDS, MESSAGE_FIELDS, wireFieldNames } from '../../src/schemas/wire-fields.js';
import { UNREADABLE } from '../../src/utils/issues.js';
import { revoked, runParameters } from './hostile.js';

const MESSAGE_NAMES = wireFieldNames(MESSAGE_FIELDS);

/** The message copy by the table: an array's entries, each object read as `fieldsOf` its message fields. */
function messagesByTable(value: unknown): unknown {
  const isArray = readSafely(() => Array.isArray(value));
  if (isArray !== true) return isArray === false ? value : isArray;
  const messages = value as unknown[];
  const length = readSafely(() => messages.length);
  if (typeof length !== 'number') return length;
  const copy: unknown[] = new Array(length);
  for (let index = 0; index < length; index += 1) {
    const message = readSafely(() => messages[index]);
    copy[index] = typeof message === 'object' && message !== null ? fieldsOf(message, MESSAGE_NAMES) : message;
  }
  return copy;
}

const llmByTable = fieldReaderOf(LLM_STEP_FIELDS, { messages: messagesByTable });

/** What a field holds, in a form fast-check can make and shrink; {@link build} makes the value. */
type Spec = { kind: 'value'; value: unknown } | { kind: 'throws' } | { kind: 'revoked' } | { kind: 'absent' } | { kind: 'object'; fields: [string, Spec][] }
  | { kind: 'array'; items: Spec[] } | { kind: 'oddLength'; length: unknown };

/** Counts every read of a built value's fields, by path: both readers must read alike. */
type Reads = Map<string, number>;

/** A fresh value from its spec: getters that throw and revoked Proxies are made anew for each reader. */
function build(spec: Spec, reads: Reads, path: string): unknown {
  switch (spec.kind) {
    case 'value':
      return spec.value;
    case 'revoked':
      return revoked();
    case 'oddLength':
      // An array as `Array.isArray` sees it, whose length is no array length.
      return new Proxy([], { get: (target, key) => (key === 'length' ? spec.length : Reflect.get(target, key)) });
    case 'array': {
      const array: unknown[] = [];
      spec.items.forEach((item, index) => {
        if (item.kind === 'throws') {
          Object.defineProperty(array, index, {
            enumerable: true,
            get() {
              throw new Error('an entry threw');
            },
          });
        } else {
          array[index] = build(item, reads, `${path}[${index}]`);
        }
      });
      return array;
    }
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const [name, field] of spec.fields) {
        if (field.kind === 'absent') continue;
        const at = `${path}.${name}`;
        Object.defineProperty(object, name, {
          enumerable: true,
          get() {
            reads.set(at, (reads.get(at) ?? 0) + 1);
            if (field.kind === 'throws') throw new Error('a getter threw');
            return build(field, reads, at);
          },
        });
      }
      return object;
    }
    default:
      return undefined;
  }
}

/**
 * A record as plain data, key order and absent keys kept (`toStrictEqual` alone ignores
 * the order); a revoked Proxy kept as given, made anew for each reader, as a mark.
 */
function shape(value: unknown): unknown {
  if (readSafely(() => Array.isArray(value)) === UNREADABLE) return 'a revoked Proxy';
  if (Array.isArray(value)) return Array.from(value, shape);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.keys(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]);
  }
  return value;
}

const leaf: fc.Arbitrary<Spec> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.anything({ maxDepth: 1 }), fc.constantFrom(undefined, null, 0, 'x', UNREADABLE)).map((value): Spec => ({ kind: 'value', value })) },
  { weight: 1, arbitrary: fc.constantFrom<Spec>({ kind: 'throws' }, { kind: 'revoked' }, { kind: 'absent' }) },
);
const fieldsSpec = (names: readonly string[], value: (name: string) => fc.Arbitrary<Spec>): fc.Arbitrary<Spec> =>
  fc.tuple(...names.map((name) => value(name))).map((specs): Spec => ({ kind: 'object', fields: names.map((name, index) => [name, specs[index] as Spec]) }));
const message = fc.oneof({ weight: 4, arbitrary: fieldsSpec(['role', 'content', 'name'], () => leaf) }, { weight: 1, arbitrary: leaf });
const messages = fc.oneof(
  { weight: 4, arbitrary: fc.array(message, { maxLength: 4 }).map((items): Spec => ({ kind: 'array', items })) },
  { weight: 1, arbitrary: leaf },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('2', -1, 1.5, 2 ** 32, undefined).map((length): Spec => ({ kind: 'oddLength', length })) },
);
/** A call's params: an object of the given fields (and one the reader must not read), or anything else. */
const params = (names: readonly string[], value: (name: string) => fc.Arbitrary<Spec> = () => leaf) =>
  fc.oneof({ weight: 5, arbitrary: fieldsSpec([...names, 'extra'], value) }, { weight: 1, arbitrary: leaf });

/** Runs both readers on fresh values of one spec: the same record, and the same reads. */
function agree(spec: Spec, fast: (params: unknown) => unknown, byTable: (params: unknown) => unknown): void {
  const fastReads: Reads = new Map();
  const tableReads: Reads = new Map();
  const fromFast = readSafely(() => fast(build(spec, fastReads, '')));
  const fromTable = readSafely(() => byTable(build(spec, tableReads, '')));
  expect(shape(fromFast)).toStrictEqual(shape(fromTable));
  expect(fastReads).toEqual(tableReads);
}

describe('the readers of the recording calls agree with the table readers', () => {
  it('conversation.interaction(): input, tags copied when plain, feature_flag copied when an array', () => {
    fc.assert(
      fc.property(params(['input', 'tags', 'feature_flag']), (spec) => {
        agree(spec, interactionFields, (given) => {
          const { input, tags, feature_flag } = fieldsOf(given, ['input', 'tags', 'feature_flag'] as const);
          return { input, tags: copyPlainObject(tags), feature_flag: copyArray(feature_flag) };
        });
      }),
      runParameters(1_000),
    );
  });

  it('turn.end(): output', () => {
    fc.assert(
      fc.property(params(['output']), (spec) => {
        agree(spec, endOutput, (given) => fieldsOf(given, ['output'] as const).output);
      }),
      runParameters(1_000),
    );
  });

  it('turn.llm(): the LLM step fields, messages copied one level deeper', () => {
    fc.assert(
      fc.property(params(wireFieldNames(LLM_STEP_FIELDS), (name) => (name === 'messages' ? messages : leaf)), (spec) => {
        agree(spec, llmFields, llmByTable);
      }),
      runParameters(2_000),
    );
  });

  it('keeps a copy: changes the caller makes after the call do not reach the record', () => {
    const history = [{ role: 'user', content: 'Hi' }];
    const recorded = llmFields({ model: 'm', messages: history, output: 'o' });
    history.push({ role: 'assistant', content: 'later' });
    (history[0] as { content: string }).content = 'changed';
    const tags = { plan: 'pro' };
    const flags = ['new-prompt'];
    const fields = interactionFields({ input: 'q', tags, feature_flag: flags });
    tags.plan = 'free';
    flags.push('later');
    expect(fields.feature_flag).toStrictEqual(['new-prompt']);
    expect(recorded).toStrictEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], output: 'o' });
    expect(fields.tags).toStrictEqual({ plan: 'pro' });
  });
});
