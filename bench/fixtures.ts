/**
 * Realistic interaction data. Every string is made by `JSON.parse`, as text from an LLM
 * API or a web request is: flat, fresh strings, none shared between interactions, so the
 * memory benchmark counts what a real application would hold.
 */
export interface InteractionData {
  input: string;
  tags: Record<string, string>;
  model: string;
  messages: { role: 'system' | 'user'; content: string }[];
  output: string;
  input_tokens: number;
  output_tokens: number;
}

const SYSTEM =
  'You are the assistant of an HR help desk. Answer from the handbook only, in two sentences at most, and cite the section.';
const TOPICS = ['parental leave', 'remote work', 'expense claims', 'overtime pay', 'sick days', 'travel policy'];

/** The data of interaction `n`: a two-message history of about 300 bytes, tags, an answer. */
export function interactionData(n: number): InteractionData {
  const topic = TOPICS[n % TOPICS.length] ?? 'leave';
  const question = `Question ${n}: what does the handbook say about ${topic} for someone in their first year?`;
  return JSON.parse(
    JSON.stringify({
      input: question,
      tags: { department: n % 2 === 0 ? 'sales' : 'engineering', locale: 'en-GB' },
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: question },
      ],
      output: `Answer ${n}: for ${topic}, first-year staff follow section ${(n % 40) + 1} of the handbook; ask HR for the exceptions.`,
      input_tokens: 60 + (n % 17),
      output_tokens: 28 + (n % 9),
    }),
  ) as InteractionData;
}
