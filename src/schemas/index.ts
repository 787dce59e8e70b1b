/**
 * The wire format, written once. The client validates with these schemas, and the
 * reference server validates with them.
 */
export * from './common.js';
export * from './conversations.js';
export * from './feedback.js';
export * from './feedback-event.js';
export * from './filters.js';
export * from './interactions.js';
export * from './issues.js';
export * from './json.js';
export * from './reading.js';
export * from './responses.js';
export * from './tags.js';
export * from './traces.js';
export * from './users.js';
export * from './variants.js';

// The request and response types are written out field by field in ../types, and held
// equal to what these schemas infer (type-checks.ts).
export type * from '../types/index.js';
