/**
 * What the chaos run's coordinator and its worker processes say to each other over IPC.
 * The coordinator decides every step (which process records which turn, sends which
 * feedback, ends which conversation); a worker does it with the public API and answers
 * once it is done (for a turn: once `nebuly.flush()` resolved, i.e. the turn is stored).
 */

/** The settings a worker makes its client with. */
export interface WorkerConfig {
  /** Sent with each of its requests as `x-chaos-sender`, so that the check knows who sent what. */
  readonly name: string;
  readonly baseUrl: string;
  /** One Redis, or every master of a Redis Cluster (`cluster`). */
  readonly redisUrls: readonly string[];
  readonly cluster: boolean;
  readonly prefix: string;
  readonly idleTimeoutMs: number;
  readonly leaseMs: number;
  /** `0`: the process never sweeps on its own (recorders); sweepers call `sweep()` in a loop. */
  readonly sweepIntervalMs: number;
}

export type Command =
  | { readonly kind: 'turn'; readonly id: number; readonly conversationId: string; readonly endUser: string; readonly turn: number }
  | {
      readonly kind: 'feedback';
      readonly id: number;
      readonly conversationId: string;
      readonly interactionId: string;
    }
  | { readonly kind: 'end'; readonly id: number; readonly conversationId: string; readonly endUser: string }
  | { readonly kind: 'sweep'; readonly id: number }
  | { readonly kind: 'shutdown'; readonly id: number };

export type Reply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly id: number; readonly interactionId?: string }
  /** `id`: the command that failed; without it, something the client reported to `onError`. */
  | { readonly kind: 'error'; readonly message: string; readonly id?: number };

/** What a turn's input says, so that the sink's bodies tell which conversation and turn they hold. */
export const turnInput = (conversationId: string, turn: number) => `conversation ${conversationId} turn ${turn}`;

/** The turn a body's input names, or `undefined`. */
export function parseInput(input: unknown): { conversationId: string; turn: number } | undefined {
  const match = typeof input === 'string' ? /^conversation (\S+) turn (\d+)$/.exec(input) : null;
  return match === null ? undefined : { conversationId: match[1]!, turn: Number(match[2]) };
}

export const API_KEY = 'chaos-key';
export const PROJECT = 'chaos';
