import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { DocumentInterface } from '@langchain/core/documents';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { ChainValues } from '@langchain/core/utils/types';
import { checkTestedVersion } from '../diagnostics.js';
import { ModelCall } from '../model-call.js';
import { failedCall, llmFinished } from '../provider/step.js';
import { lastUserText, markedOutput, type StepMessage } from '../provider/text.js';
import { readableText } from '../readable.js';
import { SweepingMap } from '../sweeping-map.js';
import { beginCall, checkTarget, type NebulyTarget, type ObservedCall, type StepSlot, type TargetChoice } from '../target.js';
import type { ToolRun } from '../tool-runs.js';
import { inputText, outputText, stepMessages, toolResultText, toolRunsOf } from './messages.js';
import { classNameOf, coreVersion, failedOutputs, firstString, generationAnswer, requestedModel, streamStartOutputTokens } from './model-run.js';

/** The interaction a top-level run records into, with the last answer seen in it. */
interface TopRun {
  readonly call: ObservedCall;
  lastAnswer: string | undefined;
  /** The tool calls the top-level model run's answer asked for (a model invoked alone). */
  awaitsTools: readonly string[] | undefined;
  /** Its runs that have started and not ended, itself included. */
  readonly open: Set<string>;
}

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
  | {
      readonly kind: 'model';
      readonly modelCall: ModelCall;
      readonly model: string;
      readonly messages: StepMessage[];
      streamed: string;
      /** What the stream's first chunk counted as output (see `streamStart`), to count it once. */
      startOutputTokens: number | undefined;
    }
  | { readonly kind: 'retrieval'; readonly slot: StepSlot; readonly source: string; readonly input: string }
);

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
 * or the last user message), output = its final answer. A model invoked alone whose
 * messages end with `ToolMessage`s continues the interaction that asked for the tools.
 * Runs are told apart by `runId` / `parentRunId`, so one handler serves concurrent runs
 * without mixing them. Without a target, each top-level run records into the ambient
 * target of `nebuly.withConversation()`.
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

  readonly #target: TargetChoice;
  /**
   * LangChain never ends a model run whose stream was left (a client that disconnects
   * mid-answer): runs whose conversation ended can record nothing more and are let go.
   */
  readonly #runs = new SweepingMap<string, RunState>((run) => run.top.call.closed);

  /** @throws TypeError when `target` is given and is not a valid target. */
  constructor(target?: NebulyTarget) {
    super();
    this.#target = checkTarget(target);
    this.awaitHandlers = true;
  }

  /** A handler for the same target (LangChain's `copy()` contract), with runs of its own. */
  override copy(): NebulyCallbackHandler {
    return new NebulyCallbackHandler(this.#target);
  }

  static {
    runsOf = (handler) => handler.#runs;
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
      const given = messages[0] ?? [];
      this.#startModel(requestedModel(llm, extraParams, metadata), stepMessages(given), runId, parentRunId, () => toolRunsOf(given), metadata);
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
      this.#startModel(requestedModel(llm, extraParams, metadata), messages, runId, parentRunId, () => [], metadata);
    });
  }

  override handleLLMNewToken(
    token: string,
    _indices: unknown,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    fields?: { chunk?: unknown },
  ): void {
    const run = this.#runs.get(runId);
    if (run?.kind !== 'model' || typeof token !== 'string') return;
    run.streamed += token;
    run.modelCall.streaming();
    if (run.startOutputTokens === undefined) run.startOutputTokens = streamStartOutputTokens(fields?.chunk);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    this.#guarded(runId, 'an LLM end', () => {
      const run = this.#runs.get(runId);
      if (run?.kind !== 'model') return;
      const finished = run.modelCall.finish(() => llmFinished(run.messages, generationAnswer(output, run.model, run.startOutputTokens), { kind: 'complete' }));
      run.top.lastAnswer = finished?.output;
      if (run.isTop) run.top.awaitsTools = finished?.awaitsTools;
      this.#finish(runId, () => finished?.output);
    });
  }

  override handleLLMError(error: unknown, runId: string): void {
    this.#guarded(runId, 'an LLM error', () => {
      const run = this.#runs.get(runId);
      if (run?.kind !== 'model') return;
      // What streamed before the failure is kept, marked; else the step says the call failed.
      const answer = { model: run.model, text: run.streamed, toolCalls: [], inputTokens: undefined, outputTokens: undefined };
      const finished = run.modelCall.finish(() =>
        run.streamed === '' ? failedCall(run.messages, run.model, error) : llmFinished(run.messages, answer, { kind: 'failed', error }),
      );
      this.#finish(runId, () => finished?.output);
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
   * parent this handler knows of, into an interaction of its own (or the one it
   * continues: `toolRuns`), its input read lazily: only top-level runs need it.
   */
  #place(
    runId: string,
    parentRunId: string | undefined,
    input: () => string | undefined,
    toolRuns: () => ToolRun[] = () => [],
  ): { top: TopRun; isTop: boolean } {
    const parent = parentRunId === undefined ? undefined : this.#runs.get(parentRunId);
    if (parent !== undefined) {
      parent.top.open.add(runId);
      return { top: parent.top, isTop: false };
    }
    const call = beginCall(this.#target, { input: input(), toolRuns: toolRuns() });
    return { top: { call, lastAnswer: undefined, awaitsTools: undefined, open: new Set([runId]) }, isTop: true };
  }

  #startModel(
    model: string,
    messages: StepMessage[],
    runId: string,
    parentRunId: string | undefined,
    toolRuns: () => ToolRun[],
    metadata: Record<string, unknown> | undefined,
  ): void {
    const placed = this.#place(runId, parentRunId, () => lastUserText(messages), toolRuns);
    checkTestedVersion(placed.top.call.client, '@langchain/core', coreVersion(metadata));
    const modelCall = new ModelCall(placed.top.call, { endsCall: false });
    this.#runs.set(runId, { kind: 'model', ...placed, modelCall, model, messages, streamed: '', startOutputTokens: undefined });
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
      if (open?.kind === 'model') open.modelCall.drop();
      else if (open?.kind === 'retrieval') open.slot.cancel();
    }
    run.top.call.end({ output: answer() ?? run.top.lastAnswer ?? '', awaitsTools: run.top.awaitsTools });
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
