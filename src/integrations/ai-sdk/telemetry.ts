import type { TelemetryIntegration } from 'ai';
import { llmFinished } from '../provider/step.js';
import { lastUserText, markedOutput, tokenCount, toolCallText, type StepMessage } from '../provider/text.js';
import { readableText } from '../readable.js';
import { beginCall, checkTarget, resolveTarget, type NebulyTarget, type ObservedCall, type StepSlot } from '../target.js';
import { awaitModelCall, type AwaitedModelCall } from './handoff.js';
import { eventRequest, lastUserWords } from './messages.js';

type EventOf<NAME extends keyof TelemetryIntegration> = Parameters<NonNullable<TelemetryIntegration[NAME]>>[0];

/** An LLM step between its start and its finish. */
interface OpenStep {
  readonly messages: StepMessage[];
  readonly awaited: AwaitedModelCall;
  /** Its place in the trace, taken when its answer arrives. */
  slot: StepSlot | undefined;
}

/** One `generateText` / `streamText` call observed through its telemetry events. */
class ObservedRun {
  readonly #target: NebulyTarget;
  readonly #call: ObservedCall;
  readonly #steps = new Map<number, OpenStep>();
  readonly #tools = new Map<string, StepSlot>();

  /** Whether the interaction was ended with the final step. */
  #ended = false;

  constructor(target: NebulyTarget, event: EventOf<'onStart'>) {
    this.#target = target;
    const prompt = typeof event.prompt === 'string' ? [{ role: 'user', content: event.prompt }] : (event.prompt ?? event.messages);
    // A prompt that ends with tool results (a client-side tool's) continues the interaction that asked for them.
    const { messages, toolRuns } = eventRequest(undefined, prompt);
    this.#call = beginCall(target, { input: lastUserText(messages), toolRuns });
  }

  fault(error: unknown, context: string): void {
    this.#call.fault(error, context);
  }

  /** See {@link ObservedCall.guard}. */
  guard(context: string, record: () => void): void {
    this.#call.guard(context, record);
  }

  stepStarted(event: EventOf<'onStepStart'>): void {
    const { messages } = eventRequest(event.system, event.messages);
    const awaited = awaitModelCall(this.#target, {
      provider: event.model.provider,
      modelId: event.model.modelId,
      input: lastUserWords(event.messages),
      toolChoice: event.toolChoice,
    });
    this.#steps.set(event.stepNumber, { messages, awaited, slot: undefined });
  }

  // A step takes its place when its answer arrives: at its first tool call, else at its
  // end. Taken at its start, the place of a model call that throws would stay empty (ai
  // tells integrations nothing of it). A tool keeps the place it had when it started,
  // after its step's: onToolCallFinish comes before the onStepFinish of the step that
  // asked for the tool, and the order holds all the same.
  #placeOf(step: OpenStep): StepSlot {
    step.slot ??= this.#call.reserve();
    return step.slot;
  }

  toolStarted(event: EventOf<'onToolCallStart'>): void {
    const step = event.stepNumber === undefined ? undefined : this.#steps.get(event.stepNumber);
    if (step !== undefined) this.#placeOf(step);
    this.#tools.set(event.toolCall.toolCallId, this.#call.reserve());
  }

  toolFinished(event: EventOf<'onToolCallFinish'>): void {
    const { toolCallId, toolName, input } = event.toolCall;
    const slot = this.#tools.get(toolCallId) ?? this.#call.reserve();
    this.#tools.delete(toolCallId);
    slot.retrieval({
      source: toolName,
      input: readableText(input),
      outputs: [event.success ? readableText(event.output) : markedOutput('', { kind: 'call-failed', error: event.error })],
    });
  }

  stepFinished(event: EventOf<'onStepFinish'>): void {
    const step = this.#steps.get(event.stepNumber);
    if (step === undefined) return;
    this.#steps.delete(event.stepNumber);
    step.awaited.settle();
    const answer = {
      model: event.response.modelId || event.model.modelId,
      text: event.text,
      toolCalls: event.toolCalls.map((call) => toolCallText(call.toolName, call.input)),
      inputTokens: tokenCount(event.usage.inputTokens),
      outputTokens: tokenCount(event.usage.outputTokens),
    };
    const { llm } = llmFinished(step.messages, answer, { kind: 'complete' });
    if (llm !== undefined) this.#placeOf(step).llm(llm);
    // A step that asked for no tool is the last: the interaction ends here, before ai
    // calls the app's onFinish (which runs before the integrations'), so that a
    // `flush()` or `endConversation()` there sends it whole.
    if (event.toolCalls.length === 0) this.#end(event.text, undefined);
  }

  finished(event: EventOf<'onFinish'>): void {
    // Tool calls without results (tools the app runs itself): the interaction awaits them.
    const answered = new Set(event.content.flatMap((part) => (part.type === 'tool-result' || part.type === 'tool-error' ? [part.toolCallId] : [])));
    const unanswered = event.toolCalls.filter((call) => !answered.has(call.toolCallId));
    this.#end(event.text, unanswered.length > 0 ? unanswered.map((call) => call.toolCallId) : undefined);
  }

  #end(output: string, awaitsTools: string[] | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#release();
    this.#call.end({ output, awaitsTools });
  }

  /** The run will never finish (the generation threw): it ends with what was recorded. */
  abandon(): void {
    this.#end('', undefined);
  }

  // Places kept for steps and tools that never finished are given up.
  #release(): void {
    for (const step of this.#steps.values()) {
      step.awaited.settle();
      step.slot?.cancel();
    }
    for (const slot of this.#tools.values()) slot.cancel();
    this.#steps.clear();
    this.#tools.clear();
  }
}

/**
 * A telemetry integration for ai 6 (>= 6.0.111) that records a whole `generateText` /
 * `streamText` call (without a target: into the ambient target of
 * `nebuly.withConversation()`): each model call as an LLM step, and each tool execution as a
 * retrieval step (`source`: the tool's name, `input`: its arguments as JSON, `outputs`:
 * its result as text, or `[nebuly: call failed (<error>)]`), in the order they
 * happened, between the LLM steps of a multi-step run. With a `{ conversation }` or standalone target the
 * call is one interaction: input = the last user message's text, output = the final
 * answer's text; it ends with the step that asks for no tool, before the app's own
 * `onFinish` runs, so that a `flush()` there sends it.
 *
 * Pass a new one to every call (it is cheap): ai's telemetry events carry no call id, so
 * an integration follows one call at a time. Its callbacks return at once (ai awaits them
 * in series) and never throw; faults go to the client's `onError`. ai 6 tells telemetry
 * integrations nothing when a generation throws: the model call that threw leaves no
 * step, and the interaction ends, with what was recorded, when the same integration sees
 * its next call, else when its conversation ends. `generateObject`, `streamObject`,
 * `embed` and `embedMany` call no telemetry integration: use {@link nebulyMiddleware}
 * for them.
 *
 * With {@link nebulyMiddleware} on the same model, each model call is recorded once,
 * by this integration.
 *
 * @throws TypeError when `target` is not a valid target.
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { nebulyTelemetry } from 'nebuly-client/ai-sdk';
 *
 * const { text } = await generateText({
 *   model,
 *   tools: { getOrder },
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Where is my order 42?',
 *   experimental_telemetry: { isEnabled: true, integrations: [nebulyTelemetry({ conversation })] },
 * });
 * ```
 */
export function nebulyTelemetry(target?: NebulyTarget): TelemetryIntegration {
  const checked = checkTarget(target);
  let run: ObservedRun | undefined;
  // ai calls each callback detached from this object, and swallows what it throws;
  // faults are reported here instead.
  const observe = (context: string, record: (current: ObservedRun) => void) => {
    const current = run;
    current?.guard(context, () => record(current));
  };
  return {
    onStart(event) {
      const previous = run;
      run = undefined;
      try {
        if (previous !== undefined) {
          previous.abandon();
          previous.fault(
            new Error('a call started before the previous one had finished (it threw, or two calls share one integration)'),
            'nebulyTelemetry() follows one call at a time: pass a new nebulyTelemetry(target) to each call',
          );
        }
        const resolved = resolveTarget(checked);
        if (resolved !== undefined) run = new ObservedRun(resolved, event);
      } catch {
        // Only a bug gets here, and there is no call to report it through: nothing is recorded.
      }
    },
    onStepStart: (event) => observe('recording the start of a step', (current) => current.stepStarted(event)),
    onToolCallStart: (event) => observe('recording the start of a tool call', (current) => current.toolStarted(event)),
    onToolCallFinish: (event) => observe('recording a tool call', (current) => current.toolFinished(event)),
    onStepFinish: (event) => observe('recording a step', (current) => current.stepFinished(event)),
    onFinish(event) {
      observe('recording the end of a call', (current) => current.finished(event));
      run = undefined;
    },
  };
}
