/**
 * `NebulyAgentsProcessor`: the OpenAI Agents SDK's own tracing, recorded in Nebuly. One
 * run (one trace) is one interaction: one user message and the answer shown.
 */
import { clientParts, NebulyClient } from '../../client.js';
import { NebulyError } from '../../core/nebuly-error.js';
import { diagnoseOnce } from '../diagnostics.js';
import { recordInteraction, type Step } from '../record-interaction.js';
import { type AgentsSpan, finalText, spanStep } from './steps.js';

/**
 * What is read of an Agents SDK trace: its id, `groupId` and `metadata`.
 *
 * @example
 * ```ts
 * const trace: AgentsTrace = { traceId: 'trace_1', groupId: 'chat-1', metadata: { user_id: 'user-1' } };
 * ```
 */
export interface AgentsTrace {
  readonly traceId: string;
  readonly groupId?: string | null | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
}

/**
 * Resolves something about a run from its trace; `undefined`: not known.
 *
 * @example
 * ```ts
 * const endUser: TraceResolver = (trace) => trace.metadata?.customer as string | undefined;
 * ```
 */
export type TraceResolver = (trace: AgentsTrace) => string | undefined;

/**
 * The options of {@link NebulyAgentsProcessor}.
 *
 * @example
 * ```ts
 * const options: NebulyAgentsProcessorOptions = { nebuly, endUser: (trace) => trace.metadata?.customer as string };
 * ```
 */
export interface NebulyAgentsProcessorOptions {
  nebuly: NebulyClient;
  /** The end user of a run. Default: the trace's `metadata.user_id` (or `userId`, `end_user`). A run without one is not recorded (told once at `info`). */
  endUser?: TraceResolver | undefined;
  /** The conversation of a run. Default: the trace's `groupId` (the Agents SDK's id of a conversation), else `metadata.conversation_id`. */
  conversationId?: TraceResolver | undefined;
}

const metadataText = (trace: AgentsTrace, keys: readonly string[]) => {
  for (const key of keys) {
    const value = trace.metadata?.[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
};

const defaultEndUser: TraceResolver = (trace) => metadataText(trace, ['user_id', 'userId', 'end_user']);
const defaultConversationId: TraceResolver = (trace) => (trace.groupId ?? undefined) || metadataText(trace, ['conversation_id']);

/** A run being traced: its trace and the spans that ended so far. */
interface OpenRun {
  readonly trace: AgentsTrace;
  readonly spans: AgentsSpan[];
}

/**
 * A tracing processor for the OpenAI Agents SDK (`@openai/agents` >= 0.15): each run
 * (`run(agent, input)`, one trace) is one interaction, its input the user's message, its
 * output the final answer; each model call an LLM step, each tool run a retrieval step
 * (`source`: the tool's name), each handoff a retrieval step `{ source: 'handoff', input:
 * <from agent>, outputs: [<to agent>] }`, in the order they started. Runs with the same
 * `groupId` are one conversation. Its methods never throw into the SDK; faults go to the
 * client's `onError`.
 *
 * @example
 * ```ts
 * import { addTraceProcessor, run, withTrace } from '@openai/agents';
 * import { NebulyAgentsProcessor } from 'nebuly-client/openai-agents';
 *
 * addTraceProcessor(new NebulyAgentsProcessor({ nebuly }));
 * await withTrace('Support', () => run(triage, message), { groupId: chatId, metadata: { user_id: userHash } });
 * ```
 */
export class NebulyAgentsProcessor {
  readonly #nebuly: NebulyClient;
  readonly #endUser: TraceResolver;
  readonly #conversationId: TraceResolver;
  readonly #runs = new Map<string, OpenRun>();

  /** @throws TypeError naming the option that is wrong. */
  constructor(options: NebulyAgentsProcessorOptions) {
    if (typeof options !== 'object' || options === null || !(options.nebuly instanceof NebulyClient)) {
      throw new TypeError('nebuly-client/openai-agents: `nebuly` must be a NebulyClient.');
    }
    for (const name of ['endUser', 'conversationId'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function') {
        throw new TypeError(`nebuly-client/openai-agents: \`${name}\`, when given, must be a function (trace) => string | undefined.`);
      }
    }
    this.#nebuly = options.nebuly;
    this.#endUser = options.endUser ?? defaultEndUser;
    this.#conversationId = options.conversationId ?? defaultConversationId;
  }

  async onTraceStart(trace: AgentsTrace): Promise<void> {
    this.#guard(() => {
      // Runs that never ended (a crashed process keeps no trace) are let go past a bound.
      if (this.#runs.size >= 10_000) this.#runs.delete(this.#runs.keys().next().value ?? '');
      this.#runs.set(trace.traceId, { trace, spans: [] });
    });
  }

  async onSpanStart(): Promise<void> {}

  async onSpanEnd(span: AgentsSpan): Promise<void> {
    this.#guard(() => this.#runs.get(span.traceId)?.spans.push(span));
  }

  async onTraceEnd(trace: AgentsTrace): Promise<void> {
    this.#guard(() => {
      const run = this.#runs.get(trace.traceId);
      this.#runs.delete(trace.traceId);
      if (run !== undefined) this.#record(run);
    });
  }

  /** The client's `flush()`. */
  async forceFlush(): Promise<void> {
    await this.#nebuly.flush();
  }

  /** The client's `shutdown()`. */
  async shutdown(): Promise<void> {
    this.#runs.clear();
    await this.#nebuly.shutdown();
  }

  #record({ trace, spans }: OpenRun): void {
    const endUser = resolve(this.#endUser, trace);
    if (endUser === undefined) {
      diagnoseOnce(this.#nebuly, 'no_end_user', 'openai-agents', 'nebuly-client/openai-agents: a run has no end user (trace metadata `user_id`): not recorded. Set it with withTrace(…, { metadata: { user_id } }), or pass `endUser`.');
      return;
    }
    const ordered = [...spans].sort((a, b) => time(a.startedAt) - time(b.startedAt));
    const steps: Step[] = [];
    const answers: (string | undefined)[] = [];
    for (const span of ordered) {
      const read = spanStep(span);
      if (read === undefined) continue;
      steps.push(read.step);
      if (read.step.kind === 'llm') answers.push(read.text);
    }
    recordInteraction(this.#nebuly, {
      endUser,
      conversationId: resolve(this.#conversationId, trace),
      // The first model call's last user message: the user's message that started the run.
      input: undefined,
      output: finalText(answers),
      steps,
      startMs: Math.min(...ordered.map((span) => time(span.startedAt))),
      endMs: Math.max(...ordered.map((span) => time(span.endedAt))),
    });
  }

  #guard(work: () => unknown): void {
    try {
      work();
    } catch (error) {
      try {
        const message = error instanceof Error ? error.message : String(error);
        clientParts(this.#nebuly)?.report(new NebulyError(`nebuly-client/openai-agents: recording a run failed: ${message} (the run was not affected)`, { cause: error }));
      } catch {
        // Nowhere left to report it; the run goes on.
      }
    }
  }
}

function time(iso: string | null): number {
  const parsed = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isFinite(parsed) ? parsed : Date.now();
}

function resolve(resolver: TraceResolver, trace: AgentsTrace): string | undefined {
  try {
    const found = resolver(trace);
    return typeof found === 'string' && found.trim() !== '' ? found : undefined;
  } catch {
    return undefined;
  }
}
