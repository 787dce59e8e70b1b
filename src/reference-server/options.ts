import { checkExperiments, type Experiments } from './experiments.js';
import type { FaultSpec } from './faults.js';
import type { RecordedRequest } from './request-log.js';
import type { StoredRecord } from './stored.js';

/**
 * Options of the reference server, whichever way it runs: Node server, web handler or
 * MSW handlers. Only `apiKeys` is required.
 */
export interface ReferenceOptions {
  /**
   * The accepted API keys, each mapped to its project: `{ 'key-a': 'project-a' }`. Any
   * other key, or none, gets 401. Several keys may share a project.
   */
  apiKeys: Readonly<Record<string, string>>;
  /**
   * The largest body taken, in bytes; larger ones get 413, judged by
   * `Content-Length` and by the bytes actually read.
   * @default 1_048_576 (1 MiB)
   */
  bodyLimitBytes?: number | undefined;
  /** Faults in place from the start; more can be added through `faults.add()`. */
  faults?: readonly FaultSpec[] | undefined;
  /**
   * The source of numbers in [0, 1) for faults with a `probability`. Pass a seeded
   * generator for repeatable runs.
   * @default Math.random
   */
  random?: (() => number) | undefined;
  /**
   * How many requests `requests` keeps; older ones are forgotten.
   * @default 1000
   */
  maxRecordedRequests?: number | undefined;
  /**
   * How many bytes (UTF-8) of request bodies `requests` keeps, all requests together;
   * past it the oldest bodies are dropped first (the request stays, with `body: ''` and
   * `bodyDropped: true`) and counted in `requests.droppedBodies`.
   * @default 67_108_864 (64 MiB)
   */
  maxRecordedBytes?: number | undefined;
  /** Called after each request is responded to, with what was recorded. The CLI logs from here. */
  onRequest?: ((request: RecordedRequest) => void) | undefined;
  /**
   * Called with each interaction and each late feedback once stored (a repeat of an
   * `Idempotency-Key` stores nothing, so it is not called). The bin's `--print` uses it.
   */
  onStored?: ((record: StoredRecord) => void) | undefined;
  /**
   * The reference's clock: `received_at`, and the 24 hours an `Idempotency-Key` is
   * remembered.
   * @default () => new Date()
   */
  now?: (() => Date) | undefined;
  /**
   * The A/B experiments `/variants` answers from: each feature flag with its variants. A
   * user always gets the same variant of a flag (a hash of user and flag picks it); a flag
   * not listed is left out of the answer.
   * @default {}
   */
  experiments?: Experiments | undefined;
}

/** The defaults of {@link ReferenceOptions}. */
export const REFERENCE_DEFAULTS = Object.freeze({
  bodyLimitBytes: 1_048_576,
  maxRecordedRequests: 1000,
  maxRecordedBytes: 64 * 1024 * 1024,
});

/** {@link ReferenceOptions} checked, with every default filled in. */
export interface ResolvedReferenceOptions {
  apiKeys: ReadonlyMap<string, string>;
  bodyLimitBytes: number;
  faults: readonly FaultSpec[];
  random: () => number;
  maxRecordedRequests: number;
  maxRecordedBytes: number;
  onRequest: ((request: RecordedRequest) => void) | undefined;
  onStored: ((record: StoredRecord) => void) | undefined;
  now: () => Date;
  experiments: Experiments;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`reference server: \`${name}\` must be a whole number, 1 or more`);
  }
  return value;
}

/** Checks options and fills in defaults; throws a `TypeError` that names the bad option. */
export function resolveReferenceOptions(options: ReferenceOptions): ResolvedReferenceOptions {
  const {
    apiKeys,
    bodyLimitBytes = REFERENCE_DEFAULTS.bodyLimitBytes,
    faults = [],
    random = Math.random,
    maxRecordedRequests = REFERENCE_DEFAULTS.maxRecordedRequests,
    maxRecordedBytes = REFERENCE_DEFAULTS.maxRecordedBytes,
    onRequest,
    onStored,
    now = () => new Date(),
    experiments = {},
  } = options;
  // A map, not the object: a key such as `__proto__` or `toString` must not resolve to
  // anything it was not configured with.
  const keys = new Map(Object.entries(apiKeys ?? {}));
  if (keys.size === 0) {
    throw new TypeError("reference server: `apiKeys` must map at least one key to a project, e.g. { 'dev-key': 'dev-project' }");
  }
  for (const [key, project] of keys) {
    if (key.trim() === '' || key !== key.trim()) {
      throw new TypeError('reference server: API keys must be non-empty, without surrounding spaces');
    }
    if (typeof project !== 'string' || project === '') {
      throw new TypeError('reference server: every API key must map to a non-empty project name');
    }
  }
  return {
    apiKeys: keys,
    bodyLimitBytes: positiveInteger('bodyLimitBytes', bodyLimitBytes),
    faults,
    random,
    maxRecordedRequests: positiveInteger('maxRecordedRequests', maxRecordedRequests),
    maxRecordedBytes: positiveInteger('maxRecordedBytes', maxRecordedBytes),
    onRequest,
    onStored,
    now,
    experiments: checkExperiments(experiments, '`experiments`'),
  };
}
