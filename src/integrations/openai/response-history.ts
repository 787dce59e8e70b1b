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

/**
 * @internal The responses seen, by id, the oldest let go past `limit`. A chain is kept as
 * links (each response holds only what it added), so memory grows with what was said,
 * not with its square.
 * @example
 * ```ts
 * const history = new ResponseHistory(512);
 * history.keep('resp_1', { previous: undefined, messages, calls });
 * history.chain('resp_1').messages; // the conversation up to and including resp_1
 * ```
 */
export class ResponseHistory {
  readonly #limit: number;
  readonly #responses = new Map<string, KeptResponse>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  keep(id: string, response: KeptResponse): void {
    this.#responses.delete(id);
    if (this.#responses.size >= this.#limit) {
      const oldest = this.#responses.keys().next().value;
      if (oldest !== undefined) this.#responses.delete(oldest);
    }
    this.#responses.set(id, response);
  }

  /** The conversation up to and including response `id`: as much of it as is kept. */
  chain(id: string): { messages: StepMessage[]; calls: Map<string, ToolCallRequest> } {
    const links: KeptResponse[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); ) {
      seen.add(at);
      const kept = this.#responses.get(at);
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
