import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { DocumentInterface } from '@langchain/core/documents';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { ChainValues } from '@langchain/core/utils/types';
import { failedCall, llmFinished, type Answer } from '../provider/step.js';
import { contentText, lastUserText, markedOutput, tokenCount, type StepMessage } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import { beginCall, checkTarget, type NebulyTarget, type ObservedCall, type StepSlot } from '../target.js';
import { inputText, outputText, stepMessages, toolCallTexts, toolResultText } from './messages.js';

/** The interaction a top-level run records into, with the last answer seen in it. */
interface TopRun {
  readonly call: ObservedCall;
  lastAnswer: string | undefined;
  /** Its runs that have started and not ended, itself included. */
  readonly open: Set<string>;
}

/** Below this many runs kept, a handler does not look for forgotten ones. */
const SWEEP_FROM = 64;

let runsOf: (handler: NebulyCallbackHandler) => ReadonlyMap<string, unknown>;

/**
 * @internal How many runs `handler` keeps (started, not ended, not swept): for tests of the bound.
 * @example
 * ```ts
 * expect(trackedRunCount(handler)).toBe(0);
 * ```
 */
export function trackedRunCount(handler: NebulyCallbackHandler): number {
  return runsOf(handler).size;
}

/** What is kept of a run from its start to its end. */
type RunState = { readonly top: TopRun; readonly isTop: boolean } & (
  | { readonly kind: 'chain' }
  | { readonly kind: 'model'; readonly slot: StepSlot; readonly model: string; readonly messages: StepMessage[]; streamed: string }
  | { readonly kind: 'retrieval'; readonly slot: StepSlot; readonly source: string; readonly input: string }
);

/** The last part of a serialized runnable's id: its class name (`ChatOpenAI`). */
function classNameOf(serialized: Serialized | undefined): string | undefined {
  const id: unknown = serialized?.id;
  return Array.isArray(id) && typeof id.at(-1) === 'string' ? (id.at(-1) as string) : undefined;
}

/** The first of `keys` that holds a non-empty string. */
function firstString(source: unknown, ...keys: string[]): string | undefined {
  if (!isObject(source)) return undefined;
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The model a run asked for: its invocation parameters, LangChain's tracing metadata, its settings, else its class. */
function requestedModel(llm: Serialized, extraParams: Record<string, unknown> | undefined, metadata: Record<string, unknown> | undefined) {
  return (
    firstString(extraParams?.invocation_params, 'model', 'model_name', 'modelName') ??
    firstString(metadata, 'ls_model_name') ??
    firstString((llm as { kwargs?: unknown }).kwargs, 'model', 'model_name', 'modelName') ??
    classNameOf(llm) ??
    'unknown'
  );
}

/**
 * A generation's answer: its message's text and tool calls, the model that gave it (the
 * response's, else the one asked for), and its token counts (`usage_metadata`, else the
 * LLM output's `tokenUsage`).
 */
function generationAnswer(output: LLMResult, requested: string): Answer {
  const generation: unknown = output.generations[0]?.[0];
  const message = isObject(generation) ? generation.message : undefined;
  const usage = isObject(message) && isObject(message.usage_metadata) ? message.usage_metadata : undefined;
  const legacy = isObject(output.llmOutput) && isObject(output.llmOutput.tokenUsage) ? output.llmOutput.tokenUsage : undefined;
  return {
    model: (isObject(message) ? firstString(message.response_metadata, 'model_name', 'model') : undefined) ?? requested,
    text: isObject(message) ? contentText(message.content) : (firstString(generation, 'text') ?? ''),
    toolCalls: toolCallTexts(message),
    inputTokens: tokenCount(usage !== undefined ? usage.input_tokens : legacy?.promptTokens),
    outputTokens: tokenCount(usage !== undefined ? usage.output_tokens : legacy?.completionTokens),
  };
}

/** What a failed tool or retriever run returned: a mark that says so. */
function failedOutputs(error: unknown): string[] {
  return [markedOutput('', { kind: 'call-failed', error })];
}

/**
 * A LangChain callback handler that records what runs under it: each chat model or LLM
 * call as an LLM step (its messages, answer, model, and tokens from `usage_metadata`, else
 * the LLM output's `tokenUsage`), each retriever run as a retrieval step (`source`: the
 * retriever's name, `input`: the query, `outputs`: the documents' `pageContent`), and each
 * tool run as a retrieval step (`source`: the tool's name, `input`: its arguments,
 * `outputs`: its result, or `[nebuly: call failed (<error>)]`). Steps keep the order
 * their runs started in.
 *
 * With a `{ conversation }` or standalone target, each top-level run (a chain, an agent,
 * or a model invoked alone) is one interaction: input = the run's user input (a string,
 * or the last user message), output = its final answer. Runs are told apart by
 * `runId` / `parentRunId`, so one handler serves concurrent runs without mixing them.
 * Streamed runs are recorded whole when they end; a model run that fails keeps what it
 * streamed, marked incomplete, and the outputs follow the provider integrations' marks.
 *
 * LangChain's embedding classes call no callbacks, so embeddings are not seen here:
 * record them with `turn.embedding()`. The handler's callbacks are synchronous and
 * cheap, so it asks LangChain to run them inline (`awaitHandlers`); what it records is
 * there when the run resolves. Faults go to the client's `onError`, never into the run.
 *
 * @example
 * ```ts
 * import { NebulyCallbackHandler } from 'nebuly-client/langchain';
 *
 * const handler = new NebulyCallbackHandler({ nebuly, endUser: userHash, conversationId: chatId });
 * const answer = await agent.invoke({ messages: [new HumanMessage(question)] }, { callbacks: [handler] });
 * ```
 */
export class NebulyCallbackHandler extends BaseCallbackHandler {
  /** The handler's name, as LangChain lists it. */
  name = 'NebulyCallbackHandler';

  readonly #target: NebulyTarget;
  readonly #runs = new Map<string, RunState>();
  /** How many runs are kept when the next top-level run sweeps out the forgotten ones. */
  #sweepAt = SWEEP_FROM;

  /** @throws TypeError when `target` is not a valid target. */
  constructor(target: NebulyTarget) {
    super();
    this.#target = checkTarget(target);
    this.awaitHandlers = true;
  }

  /** A handler for the same target (LangChain's `copy()` contract), with runs of its own. */
  override copy(): NebulyCallbackHandler {
    return new NebulyCallbackHandler(this.#target);
  }

  // LangChain calls handleChainStart with (chain, inputs, runId, parentRunId, tags,
  // metadata, runType, runName): the order its own tracers use, not its declaration's.
  override handleChainStart(_chain: Serialized, inputs: ChainValues, runId: string, parentRunId?: string): void {
    this.#guarded(runId, 'a chain start', () => {
      this.#runs.set(runId, { kind: 'chain', ...this.#place(runId, parentRunId, () => inputText(inputs)) });
    });
  }

  override handleChainEnd(outputs: ChainValues, runId: string): void {
    this.#guarded(runId, 'a chain end', () => this.#finish(runId, () => outputText(outputs)));
  }

  override handleChainError(error: Error, runId: string): void {
    this.#guarded(runId, 'a chain error', () => this.#finish(runId, () => markedOutput('', { kind: 'call-failed', error })));
  }

  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.#guarded(runId, 'a chat model start', () => {
      this.#startModel(llm, stepMessages(messages[0] ?? []), runId, parentRunId, extraParams, metadata);
    });
  }

  override handleLLMStart(
    llm: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.#guarded(runId, 'an LLM start', () => {
      const prompt = prompts[0];
      const messages: StepMessage[] = prompt === undefined ? [] : [{ role: 'user', content: prompt }];
      this.#startModel(llm, messages, runId, parentRunId, extraParams, metadata);
    });
  }

  override handleLLMNewToken(token: string, _indices: unknown, runId: string): void {
    const run = this.#runs.get(runId);
    if (run?.kind === 'model' && typeof token === 'string') run.streamed += token;
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    this.#guarded(runId, 'an LLM end', () => {
      const run = this.#runs.get(runId);
      if (run?.kind !== 'model') return;
      const { llm, output: answer } = llmFinished(run.messages, generationAnswer(output, run.model), { kind: 'complete' });
      if (llm !== undefined) run.slot.llm(llm);
      run.top.lastAnswer = answer;
      this.#finish(runId, () => answer);
    });
  }

  override handleLLMError(error: unknown, runId: string): void {
    this.#guarded(runId, 'an LLM error', () => {
      const run = this.#runs.get(runId);
      if (run?.kind !== 'model') return;
      // What streamed before the failure is kept, marked; else the step says the call failed.
      const { llm, output } =
        run.streamed === ''
          ? failedCall(run.messages, run.model, error)
          : llmFinished(run.messages, { model: run.model, text: run.streamed, toolCalls: [], inputTokens: undefined, outputTokens: undefined }, { kind: 'failed', error });
      if (llm !== undefined) run.slot.llm(llm);
      this.#finish(runId, () => output);
    });
  }

  override handleRetrieverStart(retriever: Serialized, query: string, runId: string, parentRunId?: string, _tags?: string[], _metadata?: Record<string, unknown>, name?: string): void {
    this.#guarded(runId, 'a retriever start', () => {
      this.#startRetrieval(name ?? classNameOf(retriever) ?? 'retriever', query, runId, parentRunId);
    });
  }

  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    this.#guarded(runId, 'a retriever end', () => {
      this.#endRetrieval(runId, documents.map((document) => readableText(document.pageContent)));
    });
  }

  override handleRetrieverError(error: unknown, runId: string): void {
    this.#guarded(runId, 'a retriever error', () => this.#endRetrieval(runId, failedOutputs(error)));
  }

  override handleToolStart(tool: Serialized, input: string, runId: string, parentRunId?: string, _tags?: string[], _metadata?: Record<string, unknown>, runName?: string): void {
    this.#guarded(runId, 'a tool start', () => {
      const name = runName ?? firstString(tool, 'name') ?? classNameOf(tool) ?? 'tool';
      this.#startRetrieval(name, readableText(input), runId, parentRunId);
    });
  }

  override handleToolEnd(output: unknown, runId: string): void {
    this.#guarded(runId, 'a tool end', () => this.#endRetrieval(runId, [toolResultText(output)]));
  }

  override handleToolError(error: unknown, runId: string): void {
    this.#guarded(runId, 'a tool error', () => this.#endRetrieval(runId, failedOutputs(error)));
  }

  /**
   * Where a starting run records: into its parent's interaction, or, when it has no
   * parent this handler knows of, into an interaction of its own (input read lazily:
   * only top-level runs need it).
   */
  #place(runId: string, parentRunId: string | undefined, input: () => string | undefined): { top: TopRun; isTop: boolean } {
    const parent = parentRunId === undefined ? undefined : this.#runs.get(parentRunId);
    if (parent !== undefined) {
      parent.top.open.add(runId);
      return { top: parent.top, isTop: false };
    }
    this.#sweep();
    const top = { call: beginCall(this.#target, { input: input() }), lastAnswer: undefined, open: new Set([runId]) };
    return { top, isTop: true };
  }

  /**
   * LangChain never ends a model run whose stream was left (a client that disconnects
   * mid-answer): a handler serving every request would keep each such run for ever.
   * Runs whose conversation ended can record nothing more: they are let go, in sweeps,
   * each when the map has doubled since the last, so that the cost stays constant per run.
   */
  #sweep(): void {
    if (this.#runs.size < this.#sweepAt) return;
    for (const [runId, run] of this.#runs) if (run.top.call.closed) this.#runs.delete(runId);
    this.#sweepAt = Math.max(SWEEP_FROM, this.#runs.size * 2);
  }

  static {
    runsOf = (handler) => handler.#runs;
  }

  #startModel(
    llm: Serialized,
    messages: StepMessage[],
    runId: string,
    parentRunId: string | undefined,
    extraParams: Record<string, unknown> | undefined,
    metadata: Record<string, unknown> | undefined,
  ): void {
    const placed = this.#place(runId, parentRunId, () => lastUserText(messages));
    this.#runs.set(runId, {
      kind: 'model',
      ...placed,
      slot: placed.top.call.reserve(),
      model: requestedModel(llm, extraParams, metadata),
      messages,
      streamed: '',
    });
  }

  #startRetrieval(source: string, input: string, runId: string, parentRunId: string | undefined): void {
    const placed = this.#place(runId, parentRunId, () => input);
    this.#runs.set(runId, { kind: 'retrieval', ...placed, slot: placed.top.call.reserve(), source, input });
  }

  #endRetrieval(runId: string, outputs: string[]): void {
    const run = this.#runs.get(runId);
    if (run?.kind !== 'retrieval') return;
    run.slot.retrieval({ source: run.source, input: run.input, outputs });
    this.#finish(runId, () => outputs.join('\n'));
  }

  /** The run ended: a top-level run ends its interaction with its answer (else the last model answer in it). */
  #finish(runId: string, answer: () => string | undefined): void {
    const run = this.#runs.get(runId);
    if (run === undefined) return;
    this.#runs.delete(runId);
    run.top.open.delete(runId);
    if (!run.isTop) return;
    // Runs below it that never ended (a stream the caller stopped reading gets no end
    // callback from LangChain) give their places up: they recorded nothing.
    for (const openId of run.top.open) {
      const open = this.#runs.get(openId);
      this.#runs.delete(openId);
      if (open !== undefined && open.kind !== 'chain') open.slot.cancel();
    }
    run.top.call.end({ output: answer() ?? run.top.lastAnswer ?? '' });
  }

  /** Runs a callback's recording; a fault goes to `onError`, never into LangChain's run. */
  #guarded(runId: string, what: string, record: () => void): void {
    try {
      record();
    } catch (error) {
      const call = this.#runs.get(runId)?.top.call;
      if (call !== undefined) call.fault(error, `recording ${what}`);
    }
  }
}
