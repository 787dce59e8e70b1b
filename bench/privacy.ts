import { collectGarbage } from './heap.js';
import type { Sdk } from './sdk.js';

/** Rounds per measurement; the figure is their lower quartile, the least disturbed by other work on the machine. */
const ROUNDS = 21;

export interface PrivacyResult {
  /** µs per kB of JSON (lower quartile) to run `maskPII` over a conversation body of chat text with some personal data in it. */
  maskPiiUsPerKb: number;
  /** The body's size, kB of JSON. */
  bodyKb: number;
  /**
   * µs per kB of `maskPII` over near-miss text (digit groups, `a@a@`, `Bearer`, token-like
   * runs) of 100 kB and of 1 MB: equal when the cost is linear.
   */
  nearMissUsPerKb: { small: number; large: number };
}

const CHAT = [
  'Hi, I ordered the blue jacket last week and it still has not arrived. My order number is 58213.',
  'Sorry to hear that! Could you confirm the e-mail on the order? It should be something like name@example.com.',
  'Sure, it is ana.lima@example.com, and you can call me on +44 20 7946 0958 if that is easier.',
  'Thanks Ana. I see the parcel was held at the depot; I have asked them to send it today, it should arrive by Friday.',
  'Great. Also, can the refund for the old one go to my card 4111 1111 1111 1111 instead of the IBAN DE89 3704 0044 0532 0130 00?',
  'Of course: the refund will go to the card ending 1111 within 5 working days. Anything else I can help with?',
];

/** A conversation body of `turns` interactions, each with one LLM step whose history is the chat so far. */
function conversationBody(turns: number) {
  const time = '2026-03-01T10:00:00.000Z';
  return {
    conversation: {
      end_user: 'bench-user',
      interactions: Array.from({ length: turns }, (_, n) => ({
        input: CHAT[(2 * n) % CHAT.length]!,
        output: CHAT[(2 * n + 1) % CHAT.length]!,
        time_start: time,
        time_end: time,
        tags: { plan: 'pro' },
        trace: [
          {
            model: 'gpt-4o',
            messages: CHAT.slice(0, 4).map((content, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content })),
            output: CHAT[(2 * n + 1) % CHAT.length]!,
          },
        ],
      })),
    },
  };
}

function lowerQuartile(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)]!;
}

/** How many calls warm `maskPII` up: its scanners are optimized only after some. */
const WARM_UP = 20;

/** µs per kB of `run` over `kb` kB, lower quartile, on a heap without an earlier benchmark's garbage. */
function usPerKb(run: () => unknown, kb: number): number {
  collectGarbage();
  for (let warm = 0; warm < WARM_UP; warm += 1) run();
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    run();
    samples.push(((performance.now() - started) * 1000) / kb);
  }
  return Number(lowerQuartile(samples).toFixed(2));
}

/** The cost of `maskPII`, per kB, on chat text and on adversarial near misses 10x apart in size. */
export function benchPrivacy(sdk: Sdk): PrivacyResult {
  const body = conversationBody(20);
  const bodyKb = JSON.stringify(body).length / 1024;
  const maskPiiUsPerKb = usPerKb(() => sdk.maskPII(body), bodyKb);

  const unit = '1 2-3.4 a@a@ Bearer x a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6/DE89 3704 ';
  const text = (kb: number) => unit.repeat(Math.ceil((kb * 1024) / unit.length));
  const nearMiss = (kb: number) => {
    const input = { input: text(kb), output: '' };
    return usPerKb(() => sdk.maskPII({ interaction: input, traces: [] }), kb);
  };
  return { maskPiiUsPerKb, bodyKb: Number(bodyKb.toFixed(1)), nearMissUsPerKb: { small: nearMiss(100), large: nearMiss(1000) } };
}
