/**
 * `nebuly-client/openai-agents`: the OpenAI Agents SDK (`@openai/agents` >= 0.15)
 * recorded in Nebuly through its own tracing: one interaction per run (per user message),
 * tool runs and handoffs as steps. See docs/integrations.md, "OpenAI Agents SDK".
 *
 * @example
 * ```ts
 * import { addTraceProcessor } from '@openai/agents';
 * import { NebulyAgentsProcessor } from 'nebuly-client/openai-agents';
 *
 * addTraceProcessor(new NebulyAgentsProcessor({ nebuly }));
 * ```
 *
 * @module nebuly-client/openai-agents
 */
export { NebulyAgentsProcessor, type AgentsTrace, type NebulyAgentsProcessorOptions, type TraceResolver } from './processor.js';
export type { AgentsSpan } from './steps.js';
