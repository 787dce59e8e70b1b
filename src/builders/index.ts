/** Pure functions that return wire objects, validated, for code that calls the API itself. */
export { feedbackAction } from './feedback.js';
export { hashEndUser, type HashEndUserOptions } from './hash.js';
export { conversationInteraction, interactionParams, type InteractionParamsInput } from './interaction.js';
export { MICRO_DOLLARS_PER_USD, usdToMicroDollars } from './money.js';
export { embeddingStep, llmStep, retrievalStep } from './steps.js';
