/**
 * What the Responses API keeps on its side: a request with `previous_response_id` sends
 * only its new items, the rest of the conversation being the earlier responses'. The
 * wrapper saw those responses: it keeps what it needs of each (bounded) to record the
 * whole history in the follow-up's step.
 */
import type { StepMessage } from '../provider/text.js';
import type { ToolCallRequest } from '../tool-runs.js';

/** One response as kept: the items its request added, its answer, and its tool calls. */
export interface KeptResponse {
  /** The response its request continued, if any. */
  readonly previous: string | undefined;
  /** Its request's own messages (not the instructions), then its answer. */
  readonly messages: readonly StepMessage[];
  /** The tool calls it asked for, by call id. */
  readonly calls: ReadonlyMap<string, ToolCallRequest>;
}

/** What a kept response weighs: the characters of its messages. */
function weightOf(response: KeptResponse): number {
  let chars = 0;
  for (const message of response.messages) chars += message.content.length;
  return chars;
}

/**
 * @internal The responses seen, by id, the oldest let go past `limit` responses or
 * `maxChars` characters of messages. A chain is kept as links (each response holds only
 * what it added), so memory grows with what was said, not with its square.
 * @example
 * ```ts
 * const history = new ResponseHistory(512, 4_000_000);
 * history.keep('resp_1', { previous: undefined, messages, calls });
 * history.chain('resp_1').messages; // the conversation up to and including resp_1
 * ```
 */
export class ResponseHistory {
  readonly #limit: number;
  readonly #maxChars: number;
  readonly #responses = new Map<string, { kept: KeptResponse; weight: number }>();
  #chars = 0;

  constructor(limit: number, maxChars: number) {
    this.#limit = limit;
    this.#maxChars = maxChars;
  }

  /** How many responses are kept, and their characters: for tests of the bounds. */
  get size(): { responses: number; chars: number } {
    return { responses: this.#responses.size, chars: this.#chars };
  }

  keep(id: string, response: KeptResponse): void {
    this.#forget(id);
    const weight = weightOf(response);
    if (weight > this.#maxChars) return;
    this.#responses.set(id, { kept: response, weight });
    this.#chars += weight;
    for (const oldest of this.#responses.keys()) {
      if (this.#responses.size <= this.#limit && this.#chars <= this.#maxChars) break;
      this.#forget(oldest);
    }
  }

  #forget(id: string): void {
    const known = this.#responses.get(id);
    if (known === undefined) return;
    this.#responses.delete(id);
    this.#chars -= known.weight;
  }

  /** The conversation up to and including response `id`: as much of it as is kept. */
  chain(id: string): { messages: StepMessage[]; calls: Map<string, ToolCallRequest> } {
    const links: KeptResponse[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); ) {
      seen.add(at);
      const kept: KeptResponse | undefined = this.#responses.get(at)?.kept;
      if (kept === undefined) break;
      links.push(kept);
      at = kept.previous;
    }
    const messages: StepMessage[] = [];
    const calls = new Map<string, ToolCallRequest>();
    for (const link of links.reverse()) {
      messages.push(...link.messages);
      for (const [callId, call] of link.calls) calls.set(callId, call);
    }
    return { messages, calls };
  }
}
