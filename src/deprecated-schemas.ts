/**
 * The schemas the package root exported in 0.1.0, kept there for one more minor version
 * so that upgrading breaks nothing: they now live in `nebuly-client/schemas`. Each is
 * made at its first use (`onFirstTouch`), so that importing the package does not build
 * them, nor, on Node, evaluate zod (`zod-checks-now.node.ts`).
 */
import * as wireFields from './schemas/wire-fields.js';
import type { ZodChecks } from './builders/zod-checks.js';
import { zodChecks } from './builders/zod-checks-now.js';
import { onFirstTouch } from './utils/on-first-touch.js';

type Schemas = ZodChecks['schemas'];

/** The schema `name`, made when it is first used. */
function schema<Name extends keyof Schemas>(name: Name): Schemas[Name] {
  return onFirstTouch(() => zodChecks().schemas[name]);
}

/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const conversationInteractionSchema = /* @__PURE__ */ schema('conversationInteractionSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const sendConversationParamsSchema = /* @__PURE__ */ schema('sendConversationParamsSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const conversationFeedbackActionSchema = /* @__PURE__ */ schema('conversationFeedbackActionSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const FEEDBACK_SLUGS = wireFields.FEEDBACK_SLUGS;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const feedbackActionSchema = /* @__PURE__ */ schema('feedbackActionSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const deleteInteractionsParamsSchema = /* @__PURE__ */ schema('deleteInteractionsParamsSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const FILTER_KINDS = wireFields.FILTER_KINDS;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const interactionFilterSchema = /* @__PURE__ */ schema('interactionFilterSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const timeRangeSchema = /* @__PURE__ */ schema('timeRangeSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const interactionSchema = /* @__PURE__ */ schema('interactionSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const sendInteractionParamsSchema = /* @__PURE__ */ schema('sendInteractionParamsSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const messageResponseSchema = /* @__PURE__ */ schema('messageResponseSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const embeddingStepSchema = /* @__PURE__ */ schema('embeddingStepSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const llmStepSchema = /* @__PURE__ */ schema('llmStepSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const MESSAGE_ROLES = wireFields.MESSAGE_ROLES;
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const messageSchema = /* @__PURE__ */ schema('messageSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const retrievalStepSchema = /* @__PURE__ */ schema('retrievalStepSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const traceStepSchema = /* @__PURE__ */ schema('traceStepSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const deleteUsersParamsSchema = /* @__PURE__ */ schema('deleteUsersParamsSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const userRecordResponseSchema = /* @__PURE__ */ schema('userRecordResponseSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const userRecordSchema = /* @__PURE__ */ schema('userRecordSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const usersParamsSchema = /* @__PURE__ */ schema('usersParamsSchema');
/** @deprecated Import it from `nebuly-client/schemas`; the package root stops exporting it in 0.3.0. */
export const usersResponseSchema = /* @__PURE__ */ schema('usersResponseSchema');
