import { UNREADABLE } from '../utils/issues.js';
import { copyArray, copyPlainObject } from './fields.js';

// The parameters of the three calls every recorded interaction makes (`interaction`,
// `llm`, `end`), read exactly as fieldsOf and fieldReaderOf read them (each field once,
// a read that throws kept as UNREADABLE, the schema's order), but written out field by
// field: a reader that loops over a table of names looks each property up by a name
// that varies, and builds its record key by key, which cost these calls about 250 ns an
// interaction. test/fuzz/call-fields.test.ts holds each equal to the table reader on any value.

/** A call's params, read by name. */
type Params = Record<string, unknown>;

/**
 * The fields of `conversation.interaction()`'s params: `input` as given, `tags` copied
 * when they are a plain object ({@link copyPlainObject}), `feature_flag` copied when it
 * is an array ({@link copyArray}).
 *
 * @example
 * ```ts
 * const { input, tags, feature_flag } = interactionFields({ input: 'Hi', tags: { plan: 'pro' }, feature_flag: ['new-prompt'] });
 * ```
 */
export function interactionFields(params: unknown): { input: unknown; tags: unknown; feature_flag: unknown } {
  if (typeof params !== 'object' || params === null) return { input: undefined, tags: undefined, feature_flag: undefined };
  let input: unknown;
  let tags: unknown;
  let featureFlag: unknown;
  try {
    input = (params as Params).input;
  } catch {
    input = UNREADABLE;
  }
  try {
    tags = (params as Params).tags;
  } catch {
    tags = UNREADABLE;
  }
  try {
    featureFlag = (params as Params).feature_flag;
  } catch {
    featureFlag = UNREADABLE;
  }
  return { input, tags: copyPlainObject(tags), feature_flag: copyArray(featureFlag) };
}

/**
 * The `output` of `turn.end()`'s params.
 *
 * @example
 * ```ts
 * record.output = endOutput({ output: 'Hello!' });
 * ```
 */
export function endOutput(params: unknown): unknown {
  if (typeof params !== 'object' || params === null) return undefined;
  try {
    return (params as Params).output;
  } catch {
    return UNREADABLE;
  }
}

/** One message of an LLM step: only the message schema's fields, `role` and `content`. */
function messageFields(message: object): Params {
  let role: unknown;
  let content: unknown;
  try {
    role = (message as Params).role;
  } catch {
    role = UNREADABLE;
  }
  try {
    content = (message as Params).content;
  } catch {
    content = UNREADABLE;
  }
  return { role, content };
}

/**
 * The messages of an LLM step, copied one level deeper than an array: a caller who
 * streams into a message's `content`, or reuses the object, must not change what was
 * recorded. An entry that is no object is kept as given, for validation to report; what
 * is no array, as it is. May throw (a Proxy whose `length` is no array length): the
 * field is then UNREADABLE.
 */
function copyMessages(value: unknown): unknown {
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
  } catch {
    return UNREADABLE;
  }
  if (!isArray) return value;
  const messages = value as unknown[];
  let length: unknown;
  try {
    length = messages.length;
  } catch {
    return UNREADABLE;
  }
  if (typeof length !== 'number') return length;
  const copy: unknown[] = new Array(length);
  for (let index = 0; index < length; index += 1) {
    try {
      const message: unknown = messages[index];
      copy[index] = typeof message === 'object' && message !== null ? messageFields(message) : message;
    } catch {
      copy[index] = UNREADABLE;
    }
  }
  return copy;
}

/**
 * An LLM step as recorded (`LLM_STEP_FIELDS`): `model`, `messages` (copied) and `output`
 * always, the token counts and `cost` only when given.
 *
 * @example
 * ```ts
 * trace.push(llmFields({ model: 'gpt-4o', messages, output: 'Hello!', input_tokens: 12 }));
 * ```
 */
export function llmFields(step: unknown): Params {
  if (typeof step !== 'object' || step === null) return { model: undefined, messages: undefined, output: undefined };
  const source = step as Params;
  let model: unknown;
  let messages: unknown;
  let output: unknown;
  let inputTokens: unknown;
  let outputTokens: unknown;
  let cost: unknown;
  try {
    model = source.model;
  } catch {
    model = UNREADABLE;
  }
  try {
    messages = copyMessages(source.messages);
  } catch {
    messages = UNREADABLE;
  }
  try {
    output = source.output;
  } catch {
    output = UNREADABLE;
  }
  try {
    inputTokens = source.input_tokens;
  } catch {
    inputTokens = UNREADABLE;
  }
  try {
    outputTokens = source.output_tokens;
  } catch {
    outputTokens = UNREADABLE;
  }
  try {
    cost = source.cost;
  } catch {
    cost = UNREADABLE;
  }
  const recorded: Params = { model, messages, output };
  if (inputTokens !== undefined) recorded.input_tokens = inputTokens;
  if (outputTokens !== undefined) recorded.output_tokens = outputTokens;
  if (cost !== undefined) recorded.cost = cost;
  return recorded;
}
