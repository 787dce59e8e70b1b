/**
 * ai 7's telemetry (the `Telemetry` interface, given per call as `telemetry: { integrations }`
 * or to every call with `registerTelemetry()`): each event carries the `callId` of its
 * operation, so one integration follows any number of calls at once. Read structurally:
 * the types of ai 6 are the ones installed at build time.
 */
import { checkTestedVersion } from '../diagnostics.js';
import { failedCall, llmFinished } from '../provider/step.js';
import { lastUserText, markedOutput, tokenCount, toolCallText, type StepMessage } from '../provider/text.js';
import { isObject, readableText } from '../readable.js';
import { beginCall, type NebulyTarget, type ObservedCall, resolveTarget, type StepSlot, type TargetChoice } from '../target.js';
import { awaitModelCall, type AwaitedModelCall } from './handoff.js';
import { eventRequest, lastUserWords, stepMessages } from './messages.js';

/**
 * What is read of ai 7's events: every field optional, checked where used.
 *
 * @example
 * ```ts
 * const started: Ai7Event = { callId: 'call-1', operationId: 'ai.generateText', messages: [{ role: 'user', content: 'Hi' }] };
 * ```
 */
export interface Ai7Event {
  readonly callId?: string;
  readonly operationId?: string;
  readonly aiVersion?: string;
  readonly provider?: string;
  readonly modelId?: string;
  readonly instructions?: unknown;
  readonly system?: unknown;
  readonly prompt?: unknown;
  readonly messages?: unknown;
  readonly promptMessages?: unknown;
  readonly content?: readonly unknown[];
  readonly usage?: { readonly inputTokens?: unknown; readonly outputTokens?: unknown; readonly tokens?: unknown };
  readonly text?: string;
  readonly object?: unknown;
  readonly objectText?: string;
  readonly value?: string | readonly string[];
  readonly values?: readonly string[];
  readonly embedCallId?: string;
  readonly toolCall?: { readonly toolCallId?: string; readonly toolName?: string; readonly input?: unknown };
  readonly toolOutput?: { readonly type?: string; readonly output?: unknown; readonly error?: unknown };
  readonly error?: unknown;
}

/** A model call between its start and its answer. */
interface OpenModelCall {
  readonly messages: StepMessage[];
  readonly model: string;
  readonly awaited: AwaitedModelCall | undefined;
}

/** The text of a model call's content parts: text, then tool calls as `name(arguments)` lines. */
function answerOf(content: readonly unknown[] | undefined): { text: string; toolCalls: string[] } {
  let text = '';
  const toolCalls: string[] = [];
  for (const part of content ?? []) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (part.type === 'tool-call') toolCalls.push(toolCallText(typeof part.toolName === 'string' ? part.toolName : undefined, part.input));
  }
  return { text, toolCalls };
}

/** One operation of ai 7 (`generateText`, `streamText`, an agent's run, `generateObject`, `embed`…). */
class Ai7Run {
  readonly #target: NebulyTarget;
  readonly #call: ObservedCall;
  readonly #operation: string;
  #modelCall: OpenModelCall | undefined;
  readonly #slots = new Map<string, StepSlot>();

  constructor(target: NebulyTarget, event: Ai7Event) {
    this.#target = target;
    this.#operation = event.operationId ?? '';
    this.#call = beginCall(target, { input: Ai7Run.#inputOf(event) });
  }

  static #inputOf(event: Ai7Event): string | undefined {
    if (event.operationId?.startsWith('ai.embed') === true) return [event.value ?? []].flat().join('\n');
    const prompt = typeof event.prompt === 'string' ? [{ role: 'user', content: event.prompt }] : (event.prompt ?? event.messages);
    return lastUserText(eventRequest(event.instructions ?? event.system, prompt).messages);
  }

  guard(context: string, record: () => void): void {
    this.#call.guard(context, record);
  }

  modelCallStarted(event: Ai7Event, messages: StepMessage[]): void {
    this.#modelCall?.awaited?.settle();
    const awaited = awaitModelCall(this.#target, {
      provider: event.provider ?? '',
      modelId: event.modelId ?? '',
      input: lastUserWords(event.messages ?? event.promptMessages),
      toolChoice: undefined,
    });
    this.#modelCall = { messages, model: event.modelId ?? 'unknown', awaited };
  }

  modelCallEnded(answer: { text: string; toolCalls: string[] }, usage: Ai7Event['usage']): void {
    const open = this.#modelCall;
    this.#modelCall = undefined;
    if (open === undefined) return;
    open.awaited?.settle();
    const tokens = { inputTokens: tokenCount(usage?.inputTokens), outputTokens: tokenCount(usage?.outputTokens) };
    const { llm } = llmFinished(open.messages, { model: open.model, ...answer, ...tokens }, { kind: 'complete' });
    if (llm !== undefined) this.#call.llm(llm);
  }

  modelCallFailed(error: unknown): void {
    const open = this.#modelCall;
    this.#modelCall = undefined;
    if (open === undefined) return;
    open.awaited?.settle();
    const { llm } = failedCall(open.messages, open.model, error);
    if (llm !== undefined) this.#call.llm(llm);
  }

  /** A place for a step known later (a tool's run, an embedding call), in start order. */
  reserve(key: string): void {
    this.#slots.set(key, this.#call.reserve());
  }

  slot(key: string): StepSlot {
    const slot = this.#slots.get(key) ?? this.#call.reserve();
    this.#slots.delete(key);
    return slot;
  }

  ended(event: Ai7Event): void {
    const output = this.#operation.startsWith('ai.embed') ? '' : this.#operation.includes('Object') ? readableText(event.object ?? '') : (event.text ?? '');
    this.#finish(output);
  }

  /** The operation failed or was aborted: it ends with what was recorded. */
  stopped(output: string): void {
    this.modelCallFailed(new Error('the call ended before the model answered'));
    this.#finish(output);
  }

  #finish(output: string): void {
    this.#modelCall?.awaited?.settle();
    for (const slot of this.#slots.values()) slot.cancel();
    this.#slots.clear();
    this.#call.end({ output });
  }
}

/**
 * @internal The callbacks of ai 7's `Telemetry` interface for `target`, following each
 * operation by its `callId`. Names shared with ai 6's integration (`onStart`,
 * `onStepStart`) are dispatched by {@link withAi7}.
 * @example
 * ```ts
 * const callbacks = ai7Telemetry(target);
 * ```
 */
export function ai7Telemetry(choice: TargetChoice) {
  const runs = new Map<string, Ai7Run>();
  const on = (context: string, event: Ai7Event, record: (run: Ai7Run) => void) => {
    const run = event.callId === undefined ? undefined : runs.get(event.callId);
    run?.guard(context, () => record(run));
  };
  const close = (event: Ai7Event, stop: (run: Ai7Run) => void) => {
    on('recording the end of a call', event, stop);
    if (event.callId !== undefined) runs.delete(event.callId);
  };
  return {
    onStart(event: Ai7Event): void {
      if (event.callId === undefined || runs.has(event.callId)) return;
      // Its own target, else the ambient one of the code that started the call.
      const target = resolveTarget(choice);
      if (target === undefined) return;
      if ('nebuly' in target) checkTestedVersion(target.nebuly, 'ai', event.aiVersion);
      try {
        runs.set(event.callId, new Ai7Run(target, event));
      } catch {
        // Only a bug gets here, and there is no call to report it through: nothing is recorded.
      }
    },
    onLanguageModelCallStart: (event: Ai7Event) =>
      on('recording the start of a model call', event, (run) => run.modelCallStarted(event, eventRequest(event.instructions, event.messages).messages)),
    onLanguageModelCallEnd: (event: Ai7Event) => on('recording a model call', event, (run) => run.modelCallEnded(answerOf(event.content), event.usage)),
    onStepError: (event: Ai7Event) => on('recording a failed model call', event, (run) => run.modelCallFailed(event.error)),
    onObjectStepStart: (event: Ai7Event) =>
      on('recording the start of a model call', event, (run) => run.modelCallStarted(event, stepMessages(Array.isArray(event.promptMessages) ? event.promptMessages : []))),
    onObjectStepEnd: (event: Ai7Event) => on('recording a model call', event, (run) => run.modelCallEnded({ text: event.objectText ?? '', toolCalls: [] }, event.usage)),
    onToolExecutionStart: (event: Ai7Event) => on('recording the start of a tool run', event, (run) => run.reserve(`tool:${event.toolCall?.toolCallId ?? ''}`)),
    onToolExecutionEnd: (event: Ai7Event) =>
      on('recording a tool run', event, (run) => {
        const { toolCall, toolOutput } = event;
        const failed = toolOutput?.type === 'tool-error';
        run.slot(`tool:${toolCall?.toolCallId ?? ''}`).retrieval({
          source: toolCall?.toolName ?? 'tool',
          input: readableText(toolCall?.input ?? ''),
          outputs: [failed ? markedOutput('', { kind: 'call-failed', error: toolOutput.error }) : readableText(toolOutput?.output ?? '')],
        });
      }),
    onEmbedStart: (event: Ai7Event) => on('recording the start of an embedding call', event, (run) => run.reserve(`embed:${event.embedCallId ?? ''}`)),
    onEmbedEnd: (event: Ai7Event) =>
      on('recording an embedding call', event, (run) => {
        const tokens = tokenCount(event.usage?.tokens);
        const step = { model: event.modelId ?? 'unknown', input: (event.values ?? []).join('\n') };
        run.slot(`embed:${event.embedCallId ?? ''}`).embedding(tokens === undefined ? step : { ...step, input_tokens: tokens });
      }),
    onEnd: (event: Ai7Event) => close(event, (run) => run.ended(event)),
    onAbort: (event: Ai7Event) => close(event, (run) => run.stopped(markedOutput(event.text ?? '', { kind: 'aborted' }))),
    onError: (event: unknown) => close(isObject(event) ? (event as Ai7Event) : {}, (run) => run.stopped(markedOutput('', { kind: 'call-failed', error: (event as Ai7Event).error }))),
  };
}

/** Whether a telemetry event is ai 7's: ai 6's carry no `callId`. */
const isAi7 = (event: unknown): event is Ai7Event => isObject(event) && typeof event.callId === 'string';

/**
 * A callback of a telemetry integration, taking the events of ai 6 and ai 7 alike.
 *
 * @example
 * ```ts
 * const onEnd: AnyEventCallback = (event) => console.log(event);
 * ```
 */
export type AnyEventCallback = (event: unknown) => void;

/**
 * What {@link nebulyTelemetry} returns: a telemetry integration for ai 6
 * (`TelemetryIntegration`, in `experimental_telemetry.integrations`) and for ai 7
 * (`Telemetry`, in `telemetry.integrations` or `registerTelemetry()`). Its callbacks take
 * the events of either major, so it fits where each expects its own type.
 *
 * @example
 * ```ts
 * const integration: NebulyTelemetry = nebulyTelemetry({ conversation });
 * ```
 */
export interface NebulyTelemetry {
  onStart?: AnyEventCallback;
  onStepStart?: AnyEventCallback;
  onStepFinish?: AnyEventCallback;
  /** ai 6 */
  onToolCallStart?: AnyEventCallback;
  /** ai 6 */
  onToolCallFinish?: AnyEventCallback;
  /** ai 6 */
  onFinish?: AnyEventCallback;
  /** ai 7 */
  onLanguageModelCallStart?: AnyEventCallback;
  onLanguageModelCallEnd?: AnyEventCallback;
  onStepError?: AnyEventCallback;
  onObjectStepStart?: AnyEventCallback;
  onObjectStepEnd?: AnyEventCallback;
  onToolExecutionStart?: AnyEventCallback;
  onToolExecutionEnd?: AnyEventCallback;
  onEmbedStart?: AnyEventCallback;
  onEmbedEnd?: AnyEventCallback;
  onEnd?: AnyEventCallback;
  onAbort?: AnyEventCallback;
  onError?: AnyEventCallback;
}

/**
 * @internal ai 6's telemetry integration (`ai6`) made to serve ai 7 too: ai 7's events
 * (they carry a `callId`) go to {@link ai7Telemetry}, ai 6's to `ai6`; the callbacks only
 * ai 7 calls are added. ai 7 still calls `onStepFinish` (deprecated): only ai 6's events
 * reach it, so that a step is recorded once.
 * @example
 * ```ts
 * return withAi7(checked, { onStart, onStepStart, onToolCallStart, onToolCallFinish, onStepFinish, onFinish });
 * ```
 */
export function withAi7(target: TargetChoice, ai6: object): NebulyTelemetry {
  const ai7 = ai7Telemetry(target);
  const ai6Callbacks = ai6 as Record<string, AnyEventCallback | undefined>;
  const both = (name: string, ai7Callback: ((event: Ai7Event) => void) | undefined): AnyEventCallback => {
    const ai6Callback = ai6Callbacks[name];
    return (event) => (isAi7(event) ? ai7Callback?.(event) : ai6Callback?.(event));
  };
  return {
    ...ai6Callbacks,
    ...(ai7 as Record<string, AnyEventCallback>),
    onStart: both('onStart', ai7.onStart),
    onStepStart: both('onStepStart', undefined),
    onStepFinish: both('onStepFinish', undefined),
  };
}
