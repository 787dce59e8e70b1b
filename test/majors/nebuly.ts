/**
 * A client wired to an in-memory reference server: the integration tests' own
 * (test/integrations/nebuly.ts), which imports the package by its names. The tests here run
 * against the source (vitest's aliases) and are type-checked against the built
 * declarations with the majors' own typings, as a user on the newest majors sees them.
 */
export { nebulyWithReference } from '../integrations/nebuly.js';
