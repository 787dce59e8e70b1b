import * as z from 'zod/mini';
import { nonEmptyString } from './common.js';
import { capIssues } from './issues.js';

/** Body of `nebuly.variants`: the user, and the feature flags of the experiments asked about. */
export const variantsParamsSchema = z.object({
  user: nonEmptyString,
  feature_flags: z.array(nonEmptyString).check(z.minLength(1, 'must list at least one feature flag'), capIssues),
});

/** The types a variant's configuration parameter declares its value to be. */
export const CONFIG_PARAM_TYPES = ['string', 'number', 'boolean', 'array'] as const;

/** One configuration parameter of a variant (a temperature, a top-k…). */
export const configParamSchema = z.looseObject({
  name: z.string(),
  value: z.unknown(),
  param_type: z.enum(CONFIG_PARAM_TYPES),
});

const configParams = z.array(configParamSchema).check(capIssues);

/** A variant that names a prompt. */
export const promptVariantSchema = z.looseObject({ kind: z.literal('prompt'), prompt: z.string(), config_params: configParams });
/** A variant that names a model. */
export const modelVariantSchema = z.looseObject({ kind: z.literal('model'), model_id: z.string(), config_params: configParams });
/** A variant that names a RAG source. */
export const ragSourceVariantSchema = z.looseObject({ kind: z.literal('rag_source'), rag_source: z.string(), config_params: configParams });

/** A variant, told apart by its `kind`. */
export const variantSchema = z.discriminatedUnion('kind', [promptVariantSchema, modelVariantSchema, ragSourceVariantSchema]);

/** The variant a user is in for one feature flag. */
export const lookupVariantSchema = z.looseObject({
  feature_flag_name: z.string(),
  variant: variantSchema,
});

/** Answer of `nebuly.variants`: every variant the user is in, one per flag at most. */
export const variantsResponseSchema = z.looseObject({
  variants: z.array(lookupVariantSchema).check(capIssues),
});
