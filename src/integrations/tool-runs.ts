/**
 * Tool runs read back from a model call's messages: an app that runs the tools the model
 * asked for sends their results in its next call, and a wrapped client sees nothing else
 * of them. Each result is matched to the call that asked for it by the call's id.
 */
import { readableText } from './readable.js';

/**
 * A tool run, as a retrieval step records it.
 * @example
 * ```ts
 * const run: ToolRun = { id: 'call_1', source: 'get_order', input: '{"id":7}', output: 'shipped' };
 * ```
 */
export interface ToolRun {
  /** The id of the tool call it answers, when the framework gives one. */
  readonly id: string | undefined;
  readonly source: string;
  readonly input: string;
  readonly output: string;
}

/** A tool call as the model asked for it. */
export interface ToolCallRequest {
  readonly name: string | undefined;
  /** The arguments, as the model wrote them. */
  readonly input: unknown;
}

/**
 * Reads a request's messages in order: tool calls are remembered by id, and the tool
 * results that end the request (none else after them) are its tool runs.
 * @example
 * ```ts
 * const reader = new ToolRunReader();
 * reader.message(); reader.call('call_1', { name: 'get_order', input: '{"id":7}' });
 * reader.result('call_1', 'shipped');
 * reader.runs(); // [{ id: 'call_1', source: 'get_order', input: '{"id":7}', output: 'shipped' }]
 * ```
 */
export class ToolRunReader {
  /** Made at the first tool call (or from `known`): most requests have none. */
  #calls: Map<string, ToolCallRequest> | undefined;
  #results: { id: string | undefined; output: string }[] = [];

  /** `known`: tool calls asked for before this request (a response it continues). */
  constructor(known?: ReadonlyMap<string, ToolCallRequest>) {
    this.#calls = known === undefined ? undefined : new Map(known);
  }

  /** A message that is not a tool result: results before it do not end the request. */
  message(): void {
    if (this.#results.length > 0) this.#results = [];
  }

  /** A tool call the model asked for (part of an assistant message). */
  call(id: string | undefined, request: ToolCallRequest): void {
    this.message();
    if (id !== undefined) (this.#calls ??= new Map()).set(id, request);
  }

  result(id: string | undefined, output: string): void {
    this.#results.push({ id, output });
  }

  /** The tool calls seen, by id (for a later request that continues this one). */
  get calls(): ReadonlyMap<string, ToolCallRequest> {
    return (this.#calls ??= new Map());
  }

  /** The tool results that end the request, each with the call it answers. */
  runs(): ToolRun[] {
    if (this.#results.length === 0) return [];
    return this.#results.map(({ id, output }) => {
      const request = id === undefined ? undefined : this.#calls?.get(id);
      const input = request?.input;
      return {
        id,
        source: request?.name ?? 'tool',
        input: input === undefined ? '' : readableText(input),
        output,
      };
    });
  }
}
