import { deleteInteractionsCases } from './cases/delete-interactions.js';
import { errorCases } from './cases/errors.js';
import { faultCases } from './cases/faults.js';
import { feedbackCases } from './cases/feedback.js';
import { idempotencyCases } from './cases/idempotency.js';
import { ingestionCases } from './cases/ingestion.js';
import { isolationCases } from './cases/isolation.js';
import { platformCases } from './cases/platform.js';
import { userCases } from './cases/users.js';
import type { TargetFactory } from './target.js';

/**
 * The contract of the reference server, driven through the real client: every endpoint,
 * every documented decision, every error, project isolation and fault injection. Each way
 * of running the reference calls this with its own factory, so they are held to the same
 * behaviour.
 */
export function defineContractCases(factory: TargetFactory): void {
  ingestionCases(factory);
  userCases(factory);
  deleteInteractionsCases(factory);
  errorCases(factory);
  isolationCases(factory);
  faultCases(factory);
  idempotencyCases(factory);
  feedbackCases(factory);
  platformCases(factory);
}
