import type { TraceStep } from '../schemas/index.js';
import type { StoredRecord } from './stored.js';

/** Characters of a string shown by {@link describeStored}; the rest is counted, not shown. */
export const PRINTED_CHARS = 120;
/** Trace steps listed by {@link describeStored}; the rest are counted. */
const PRINTED_STEPS = 5;

/** A string cut to `max` characters, quoted with its control characters escaped, so data cannot steer a terminal. */
function quoted(text: string, max = PRINTED_CHARS): string {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${shown}… (+${text.length - max} chars)` : shown;
}

function step(trace: TraceStep): string {
  if ('source' in trace) return `retrieval ${quoted(trace.source, 40)} (${trace.outputs.length} outputs)`;
  if ('messages' in trace) return `llm ${quoted(trace.model, 40)} (${trace.messages.length} messages)`;
  return `embedding ${quoted(trace.model, 40)}`;
}

/**
 * What was stored, in a few readable lines of bounded length, for the bin's `--print`:
 * strings cut to {@link PRINTED_CHARS} characters and quoted, control characters escaped.
 *
 * @example
 * ```ts
 * createReferenceServer({ apiKeys, onStored: (record) => console.log(describeStored(record)) });
 * ```
 */
export function describeStored(record: StoredRecord): string {
  if (record.type === 'feedback') {
    const { feedback } = record;
    const text = feedback.action.text === undefined ? '' : ` ${quoted(feedback.action.text)}`;
    const value = feedback.action.value === undefined ? '' : ` ${feedback.action.value}`;
    return `stored feedback ${feedback.id} on ${feedback.interaction_id}: ${feedback.action.slug}${value}${text}`;
  }
  const { interaction } = record;
  const key = interaction.idempotency_key === null ? '' : `, key ${quoted(interaction.idempotency_key)}`;
  const steps = interaction.trace.slice(0, PRINTED_STEPS).map(step);
  if (interaction.trace.length > PRINTED_STEPS) steps.push(`and ${interaction.trace.length - PRINTED_STEPS} more`);
  const lines = [
    `stored ${interaction.id} (conversation ${quoted(interaction.conversation_id)}, end user ${quoted(interaction.end_user)}${key})`,
    `  input:  ${quoted(interaction.input)}`,
    `  output: ${quoted(interaction.output)}`,
    `  trace:  ${steps.length === 0 ? 'none' : steps.join(', ')}`,
  ];
  if (interaction.feedback_actions.length > 0) {
    lines.push(`  feedback: ${interaction.feedback_actions.slice(0, PRINTED_STEPS).map((action) => action.slug).join(', ')}`);
  }
  const tags = Object.entries(interaction.tags);
  if (tags.length > 0) lines.push(`  tags:   ${tags.slice(0, PRINTED_STEPS).map(([name, value]) => `${quoted(name, 40)}=${quoted(value, 40)}`).join(', ')}`);
  return lines.join('\n');
}
