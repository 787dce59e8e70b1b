import type { PayloadKind } from '../core/privacy-options.js';

/**
 * How {@link mapContent} changes the content: each string, and each message content
 * given as parts (an array of objects).
 *
 * @example
 * ```ts
 * const upper: ContentMap = { text: (text) => text.toUpperCase(), parts: (parts) => parts };
 * ```
 */
export interface ContentMap {
  text(text: string): string;
  parts(parts: readonly unknown[]): unknown;
}

type Json = Record<string, unknown>;

/**
 * The kinds of body whose content is known here: those a mask is given, and feedback sent
 * after the fact, whose endpoint joins {@link PayloadKind} where it is declared.
 *
 * @example
 * ```ts
 * const kind: BodyKind = 'feedback';
 * ```
 */
export type BodyKind = PayloadKind | 'feedback';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `object` with `key` mapped, when it is there. */
function withKey(object: Json, key: string, map: (value: unknown) => unknown): Json {
  return object[key] === undefined ? object : { ...object, [key]: map(object[key]) };
}

function each(value: unknown, map: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(map) : value;
}

// Each function below takes what should be there and leaves anything else as it is: a
// mask that failed may have left the body in any shape, and validation afterwards
// refuses what is not a string where content belongs.

function text(value: unknown, map: ContentMap): unknown {
  return typeof value === 'string' ? map.text(value) : value;
}

function tags(value: unknown, map: ContentMap): unknown {
  if (!isObject(value)) return value;
  const mapped: Json = {};
  for (const key of Object.keys(value)) mapped[key] = text(value[key], map);
  return mapped;
}

function feedback(actions: unknown, map: ContentMap): unknown {
  return each(actions, (action) => (isObject(action) ? withKey(action, 'text', (value) => text(value, map)) : action));
}

function message(value: unknown, map: ContentMap): unknown {
  if (!isObject(value)) return value;
  return withKey(value, 'content', (content) => (Array.isArray(content) ? map.parts(content) : text(content, map)));
}

/** A trace step of any kind: LLM (`messages`, `output`), retrieval (`input`, `outputs`), embedding (`input`). */
function step(value: unknown, map: ContentMap): unknown {
  if (!isObject(value)) return value;
  let mapped = withKey(value, 'input', (input) => text(input, map));
  mapped = withKey(mapped, 'output', (output) => text(output, map));
  mapped = withKey(mapped, 'outputs', (outputs) => each(outputs, (output) => text(output, map)));
  return withKey(mapped, 'messages', (messages) => each(messages, (item) => message(item, map)));
}

/** `input`, `output`, `tags` and, by the name each form gives them, feedback and steps. */
function interaction(value: unknown, map: ContentMap, feedbackKey?: string, stepsKey?: string): unknown {
  if (!isObject(value)) return value;
  let mapped = withKey(value, 'input', (input) => text(input, map));
  mapped = withKey(mapped, 'output', (output) => text(output, map));
  mapped = withKey(mapped, 'tags', (value) => tags(value, map));
  if (feedbackKey !== undefined) mapped = withKey(mapped, feedbackKey, (actions) => feedback(actions, map));
  return stepsKey === undefined ? mapped : withKey(mapped, stepsKey, (steps) => each(steps, (item) => step(item, map)));
}

/**
 * The content fields of each kind of body: every field that carries what a user or a
 * model wrote. Identifiers, `end_user`, model names, sources, times, counts, feedback
 * slugs and values, and tag names are not content.
 */
const WALKERS: Record<BodyKind, (payload: Json, map: ContentMap) => Json> = {
  interaction: (payload, map) => {
    let mapped = withKey(payload, 'interaction', (value) => interaction(value, map));
    mapped = withKey(mapped, 'traces', (steps) => each(steps, (item) => step(item, map)));
    return withKey(mapped, 'user_feedback', (actions) => feedback(actions, map));
  },
  conversation: (payload, map) =>
    withKey(payload, 'conversation', (conversation) =>
      isObject(conversation)
        ? withKey(conversation, 'interactions', (list) => each(list, (item) => interaction(item, map, 'feedback_actions', 'trace')))
        : conversation,
    ),
  // Feedback sent after the fact (`POST …/events/feedback`): the action's text, and the
  // input and output that link it to its interaction.
  feedback: (payload, map) => {
    const mapped = withKey(payload, 'action', (action) => (isObject(action) ? withKey(action, 'text', (value) => text(value, map)) : action));
    return withKey(mapped, 'metadata', (metadata) => interaction(metadata, map));
  },
  // Tags sent after the fact (`POST …/events/tags`): their values, and the input and
  // output that tell their interaction apart.
  tags: (payload, map) => withKey(withKey(payload, 'tags', (value) => tags(value, map)), 'metadata', (metadata) => interaction(metadata, map)),
};

/**
 * A copy of `payload` with every content field of its kind mapped: inputs, outputs,
 * messages (content strings, and content parts through `map.parts`), retrieval inputs
 * and outputs, feedback text and tag values. What is not mapped is shared, not copied.
 * Anything not of the expected type is left as it is.
 *
 * @example
 * ```ts
 * const upper = mapContent('conversation', body, { text: (text) => text.toUpperCase(), parts: (parts) => parts });
 * ```
 */
export function mapContent<P>(kind: BodyKind, payload: P, map: ContentMap): P {
  return (isObject(payload) ? WALKERS[kind](payload, map) : payload) as P;
}

/**
 * Which kind a body is, by its keys: what {@link mapContent} needs when a mask is called
 * without its context.
 *
 * @example
 * ```ts
 * kindOf({ conversation: { end_user: 'u', interactions: [] } }); // 'conversation'
 * ```
 */
export function kindOf(payload: unknown): BodyKind | undefined {
  if (!isObject(payload)) return undefined;
  if ('conversation' in payload) return 'conversation';
  if ('interaction' in payload) return 'interaction';
  if ('tags' in payload && 'metadata' in payload) return 'tags';
  if ('action' in payload || 'metadata' in payload) return 'feedback';
  return undefined;
}
