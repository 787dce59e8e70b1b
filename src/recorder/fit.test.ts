import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cropMarker, cropMarkerLength, jsonStringBytes } from './crop.js';
import { fitConversation, MIN_CROP_LEVEL } from './fit.js';
import { utf8ByteLength } from './utf8.js';

/** What the old cropToFit gave, from fitConversation: the body as text, its bytes, and whether it fits. */
async function cropToFit(value: { conversation: { end_user: string; interactions: unknown[] } }, maxBytes: number) {
  const fitted = await fitConversation(value.conversation.end_user, value.conversation.interactions as never, maxBytes);
  const json = new TextDecoder().decode(fitted.body);
  return {
    json,
    bytes: fitted.body.byteLength,
    croppedStrings: fitted.croppedStrings,
    droppedInteractions: fitted.droppedInteractions,
    fits: fitted.body.byteLength <= maxBytes,
  };
}

function conversation(inputs: string[], output = 'ok') {
  return {
    conversation: {
      end_user: 'u'.repeat(40),
      interactions: inputs.map((input) => ({
        input,
        output,
        time_start: '2026-01-01T00:00:00.000Z',
        time_end: '2026-01-01T00:00:01.000Z',
        trace: [{ model: 'gpt-4o', messages: [{ role: 'user', content: input }], output }],
      })),
    },
  };
}

describe('fitConversation', () => {
  it('leaves a value that fits alone', async () => {
    const value = conversation(['short']);
    const result = await cropToFit(value, 10_000);
    expect(result).toEqual({
      json: JSON.stringify(value),
      bytes: utf8ByteLength(JSON.stringify(value)),
      croppedStrings: 0,
      droppedInteractions: 0,
      fits: true,
    });
  });

  it('sends exactly the JSON of the conversation when it fits, small (serialized in one go) or not', async () => {
    // Up to 300 interactions and strings of up to 1,000 characters of any script: both
    // sides of the one-go limits (128 interactions, 64 Ki characters of strings).
    const text = fc.string({ unit: 'binary', maxLength: 1_000 });
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 300 }), text, async (inputs, output) => {
        const value = conversation(inputs, output);
        const result = await cropToFit(value, 2_000_000);
        expect(result.json).toBe(JSON.stringify(value));
        expect(result).toMatchObject({ croppedStrings: 0, droppedInteractions: 0, fits: true });
      }),
      { numRuns: 60 },
    );
  });

  it('crops the longest strings first, with a visible marker, until it fits', async () => {
    const value = conversation(['a'.repeat(20_000), 'b'.repeat(5_000), 'keep me']);
    const before = JSON.stringify(value);
    const result = await cropToFit(value, 10_000);
    expect(result.fits).toBe(true);
    expect(result.bytes).toBeLessThanOrEqual(10_000);
    expect(result.bytes).toBe(utf8ByteLength(result.json));
    // Not needlessly much: the level is just low enough.
    expect(result.bytes).toBeGreaterThan(9_000);
    const parsed = JSON.parse(result.json) as ReturnType<typeof conversation>;
    const [first, second, third] = parsed.conversation.interactions;
    expect(first?.input).toMatch(/^a+… \[cropped \d+ chars\]$/);
    expect(third?.input).toBe('keep me');
    expect(third?.trace[0]?.messages[0]?.content).toBe('keep me');
    expect(second?.input.length).toBeLessThanOrEqual(first?.input.length ?? 0);
    // The identifying fields are whole.
    expect(parsed.conversation.end_user).toBe('u'.repeat(40));
    expect(first?.time_start).toBe('2026-01-01T00:00:00.000Z');
    expect(first?.trace[0]?.model).toBe('gpt-4o');
    // The input is not modified.
    expect(JSON.stringify(value)).toBe(before);
  });

  it('says how many characters were cut', async () => {
    const value = { conversation: { end_user: 'u', interactions: [{ input: 'x'.repeat(1000) }] } };
    const result = await cropToFit(value, 300);
    const input = (JSON.parse(result.json) as typeof value).conversation.interactions[0]?.input ?? '';
    const match = /… \[cropped (\d+) chars\]$/.exec(input);
    expect(match).not.toBeNull();
    expect(input.length - cropMarker(Number(match?.[1])).length + Number(match?.[1])).toBe(1000);
  });

  it('measures UTF-8 bytes, not characters', async () => {
    // 4 000 characters, 12 000 bytes: a character count would think this fits.
    const value = conversation(['日'.repeat(4_000)]);
    const result = await cropToFit(value, 6_000);
    expect(result.fits).toBe(true);
    expect(new TextEncoder().encode(result.json).length).toBeLessThanOrEqual(6_000);
    expect(result.bytes).toBe(new TextEncoder().encode(result.json).length);
  });

  it('never splits a surrogate pair', async () => {
    const value = conversation(['😀'.repeat(3_000)]);
    const result = await cropToFit(value, 4_000);
    expect(result.fits).toBe(true);
    expect(result.json).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(result.json).not.toContain('\\ud');
  });

  describe('counts what goes on the wire, whatever the script', () => {
    /** Ten interactions, each with an output of `repeat` × `unit`. */
    function tenOutputs(unit: string, repeat: number) {
      return {
        conversation: {
          end_user: 'u',
          interactions: Array.from({ length: 10 }, (_, i) => ({
            input: `q${i}`,
            output: unit.repeat(repeat),
            time_start: '2026-01-01T00:00:00.000Z',
            time_end: '2026-01-01T00:00:01.000Z',
            trace: [],
            feedback_actions: [],
          })),
        },
      };
    }

    /** The bytes of content kept: each output without its marker, as it is in the JSON. */
    function keptContentBytes(json: string): number {
      const parsed = JSON.parse(json) as ReturnType<typeof tenOutputs>;
      return parsed.conversation.interactions.reduce(
        (sum, { output }) => sum + utf8ByteLength(JSON.stringify(output.replace(/… \[cropped \d+ chars\]$/, ''))) - 2,
        0,
      );
    }

    it.each([
      ['CJK, 3 bytes a character (~900 KB)', '中', 30_000],
      ['Cyrillic, 2 bytes a character (~1.2 MB)', 'ж', 60_000],
      ['emoji, surrogate pairs (~1.2 MB)', '😀', 30_000],
      ['quotes and backslashes, escaped (~1.2 MB)', '"\\', 30_000],
      ['control characters, escaped as \\u00XX (~1.2 MB)', '\u0001\u001f', 10_000],
      ['mixed ASCII, accents, emoji and escapes', 'ab é😀\n"', 12_000],
    ])('%s: fits under the limit and keeps most of it', async (_label, unit, repeat) => {
      const value = tenOutputs(unit, repeat);
      const result = await cropToFit(value, 500_000);
      expect(result.fits).toBe(true);
      expect(result.bytes).toBe(new TextEncoder().encode(result.json).length);
      expect(result.bytes).toBeLessThanOrEqual(500_000);
      // Not cropped to the marker: the outputs share nearly all of the limit.
      expect(result.bytes).toBeGreaterThan(499_000);
      expect(keptContentBytes(result.json)).toBeGreaterThan(490_000);
      expect(result.croppedStrings).toBe(10);
      expect(result.json).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    });

    it('keeps well over 100 000 bytes of a 900 KB CJK conversation cropped to 500 000', async () => {
      const result = await cropToFit(tenOutputs('中', 30_000), 500_000);
      expect(result.bytes).toBeLessThanOrEqual(500_000);
      expect(keptContentBytes(result.json)).toBeGreaterThan(100_000);
    });

    it('crops a large mixed conversation to just under the limit, not to its markers', async () => {
      const big = 'é'.repeat(200_000) + '😀'.repeat(100_000);
      const value = {
        conversation: {
          end_user: 'u',
          interactions: [
            {
              input: big,
              output: 'short',
              trace: [
                {
                  model: 'm',
                  messages: [
                    { role: 'user', content: big },
                    { role: 'assistant', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(400_000)}` } }] },
                  ],
                  output: 'x'.repeat(300_000),
                },
                { source: 's', input: 'q', outputs: ['"\\'.repeat(100_000)] },
              ],
            },
          ],
        },
      };
      const result = await cropToFit(value, 500_000);
      expect(result.fits).toBe(true);
      expect(result.bytes).toBeGreaterThan(499_000);
      const parsed = JSON.parse(result.json) as typeof value;
      expect(parsed.conversation.interactions[0]?.input).toMatch(/^é{40000,}… \[cropped \d+ chars\]$/);
      expect(parsed.conversation.interactions[0]?.output).toBe('short');
    });

    it('leaves ASCII where it was: the common length is the length in characters', async () => {
      const result = await cropToFit(tenOutputs('a', 120_000), 500_000);
      expect(result.bytes).toBeLessThanOrEqual(500_000);
      expect(result.bytes).toBeGreaterThanOrEqual(499_990);
      const outputs = (JSON.parse(result.json) as ReturnType<typeof tenOutputs>).conversation.interactions.map((i) => i.output);
      const kept = outputs[0]?.indexOf('…') ?? 0;
      expect(kept).toBeGreaterThan(49_800);
      // Every output cut to the same length, each with its marker.
      expect(outputs).toEqual(outputs.map(() => `${'a'.repeat(kept)}${cropMarker(120_000 - kept)}`));
    });
  });

  it('leaves out the latest interactions when cropping every string cannot make it fit', async () => {
    const value = conversation(Array.from({ length: 200 }, (_, i) => `question ${i} ${'x'.repeat(100)}`));
    const result = await cropToFit(value, 10_000);
    expect(result.fits).toBe(true);
    expect(result.droppedInteractions).toBeGreaterThan(0);
    const kept = (JSON.parse(result.json) as ReturnType<typeof conversation>).conversation.interactions;
    expect(kept).toHaveLength(200 - result.droppedInteractions);
    // The earliest are kept, cropped no shorter than the floor.
    expect(kept[0]?.input.startsWith(`question 0 ${'x'.repeat(MIN_CROP_LEVEL - 11)}`)).toBe(true);
  });

  it('fits a 50 MiB input held twice (input and message), with a long prompt and tokens, without dropping it', async () => {
    const text = 'q'.repeat(50 * 1024 * 1024);
    const output = 'answer: '.padEnd(200, 'x');
    const interaction = {
      input: text,
      output,
      time_start: '2026-01-01T00:00:00.000Z',
      time_end: '2026-01-01T00:00:01.000Z',
      feedback_actions: [],
      trace: [
        {
          model: 'gpt-4o-mini',
          messages: [
            { role: 'system' as const, content: 'You are a helpful assistant of the travel agency.' },
            { role: 'user' as const, content: text },
          ],
          output,
          input_tokens: 40,
          output_tokens: 60,
        },
      ],
    };
    const fitted = await fitConversation('bench-user', [interaction], 500_000);
    expect(fitted.droppedInteractions).toBe(0);
    expect(fitted.croppedStrings).toBe(2);
    expect(fitted.body.byteLength).toBeLessThanOrEqual(500_000);
    expect(fitted.body.byteLength).toBeGreaterThan(499_000);
  });

  it('never serializes a huge string whole: a 50 MiB input goes out within the limit', async () => {
    const value = conversation(['a'.repeat(50 * 1024 * 1024), 'small']);
    const result = await cropToFit(value, 500_000);
    expect(result.fits).toBe(true);
    expect(result.bytes).toBeGreaterThan(490_000);
    expect(result.droppedInteractions).toBe(0);
  });
});

describe('jsonStringBytes', () => {
  it.each(['', 'plain ascii', 'quote " and backslash \\', 'tab\t nl\n cr\r bs\b ff\f', '\u0000\u0001\u001f\u007f', 'é€日😀', 'lone \ud800 and \udc00', '\u2028\u2029'])(
    'is the UTF-8 length of JSON.stringify without the quotes, for %j',
    (text) => {
      expect(jsonStringBytes(text)).toBe(new TextEncoder().encode(JSON.stringify(text)).length - 2);
    },
  );
});

describe('cropMarkerLength', () => {
  it('is the length of the marker, at every count of digits', () => {
    for (const removed of [0, 1, 9, 10, 11, 99, 100, 999, 1_000, 123_456, 9_999_999, 10_000_000, 2 ** 31, 2 ** 53 - 1]) {
      expect(cropMarkerLength(removed)).toBe(cropMarker(removed).length);
    }
  });
});
