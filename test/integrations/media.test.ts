/**
 * Media (issue 34, item 3): a 704 kB image (and audio, and a PDF) in what is recorded or
 * sent becomes a placeholder naming its media type and size; no base64 run over 1 kB
 * leaves the process, on the recorder's path (turn.llm with OpenAI and Anthropic content
 * parts, data URLs in text), on the typed calls (`interactions.send`,
 * `conversations.send`), and through an observed OpenAI client. Asserted on the bytes the
 * Nebuly server received.
 */
import { describe, expect, it } from 'vitest';
import { observeOpenAI } from 'nebuly-client/openai';
import { openAIChatCompletion } from '../../examples/support/replies.js';
import { nebulyWithReference } from './nebuly.js';
import { openai, provider, useFakeProvider } from './openai/provider.js';

useFakeProvider();

/** A file of `size` bytes starting with `magic`, as base64. */
function file(magic: number[], size: number): string {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from(magic).copy(bytes);
  return bytes.toString('base64');
}

const PNG = file([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 704_000);
const PNG_URL = `data:image/png;base64,${PNG}`;
const WAV = file([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WAVE')], 48_000);
const PDF = file([...Buffer.from('%PDF-1.7')], 2_500_000);

/** The longest run of base64 characters in a wire body. */
function longestBase64Run(body: string): number {
  let longest = 0;
  for (const match of body.matchAll(/[A-Za-z0-9+/_-]+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** Every request body the Nebuly server received. */
const bodies = (reference: ReturnType<typeof nebulyWithReference>['reference']) => reference.requests.all({}).map((request) => request.body);

describe('the recorder', () => {
  it('content parts and data URLs: placeholders with type and size, http(s) URLs kept', async () => {
    const { nebuly, reference, errors } = nebulyWithReference();
    const conversation = nebuly.startConversation({ end_user: 'user-1' });
    const turn = conversation.interaction({ input: `What is in ${PNG_URL} ?` });
    turn.llm({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe these.' },
            { type: 'image_url', image_url: { url: PNG_URL } },
            { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } },
            { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
          ],
        },
      ],
      output: 'A cat.',
    });
    turn.end({ output: `Here: ${PNG}` });
    await conversation.end();
    await nebuly.flush();

    expect(errors).toEqual([]);
    const [body] = bodies(reference);
    expect(body).toBeDefined();
    expect(longestBase64Run(body!)).toBeLessThan(1024);
    expect(body!.length).toBeLessThan(4000);
    const interaction = (JSON.parse(body!) as { conversation: { interactions: Record<string, unknown>[] } }).conversation.interactions[0]!;
    expect(interaction.input).toBe('What is in [image/png 704 kB] ?');
    // Found by its first bytes where nothing names its type.
    expect(interaction.output).toBe('Here: [image/png 704 kB]');
    expect(interaction.trace).toEqual([
      expect.objectContaining({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe these.' },
              { type: 'image_url', image_url: { url: '[image/png 704 kB]' } },
              { type: 'image_url', image_url: { url: 'https://example.test/cat.png' } },
              { type: 'input_audio', input_audio: { data: '[audio/wav 48 kB]', format: 'wav' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '[image/png 704 kB]' } },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: '[application/pdf 2.5 MB]' } },
            ],
          },
        ],
      }),
    ]);
  });
});

describe('the typed client', () => {
  it('interactions.send and conversations.send: the wire body carries placeholders, not the image', async () => {
    const { nebuly, reference } = nebulyWithReference();
    const time_start = new Date('2026-11-01T10:00:00Z');
    const time_end = new Date('2026-11-01T10:00:02Z');
    const llm = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: [{ type: 'image_url', image_url: { url: PNG_URL } }] }], output: 'A cat.' };
    await nebuly.interactions.send({
      interaction: { conversation_id: 'c-1', end_user: 'user-1', input: `Look: ${PNG_URL}`, output: 'A cat.', time_start, time_end },
      traces: [llm],
    });
    await nebuly.conversations.send({
      conversation: { end_user: 'user-1', interactions: [{ input: PNG_URL, output: 'A cat.', time_start, time_end, trace: [llm] }] },
    });

    const sent = bodies(reference);
    expect(sent).toHaveLength(2);
    for (const body of sent) {
      expect(longestBase64Run(body)).toBeLessThan(1024);
      expect(body.length).toBeLessThan(1500);
      expect(body.match(/\[image\/png 704 kB\]/g)).toHaveLength(2);
    }
  });
});

describe('an observed OpenAI client', () => {
  it('the provider gets the image; Nebuly gets the integration’s [image] placeholder', async () => {
    provider.answer(() => openAIChatCompletion({ model: 'gpt-4o-2024-08-06', text: 'A cat.', inputTokens: 800, outputTokens: 3 }));
    const { nebuly, reference } = nebulyWithReference();
    const client = observeOpenAI(openai(), { nebuly, endUser: 'user-1' });
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_URL } }] }],
    });
    await nebuly.shutdown();

    // The request the app made is the one the provider received.
    expect(JSON.stringify(provider.requests[0]!.body)).toContain(PNG);
    const [body] = bodies(reference);
    expect(longestBase64Run(body!)).toBeLessThan(1024);
    expect(body).toContain('What is this?\\n[image]');
  });
});
