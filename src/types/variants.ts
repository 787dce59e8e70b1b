/**
 * Parameters of `nebuly.variants`: the user, and the feature flags of the A/B
 * experiments to look up.
 *
 * @example
 * ```ts
 * const params: VariantsParams = { user: endUser, feature_flags: ['new-prompt'] };
 * ```
 */
export interface VariantsParams {
  /** The end user, as sent with the interactions (`end_user`). */
  user: string;
  /** The flags of the experiments to look up; at least one. */
  feature_flags: string[];
}

/**
 * The type a configuration parameter declares its value to be.
 *
 * @example
 * ```ts
 * const type: ConfigParamType = 'number';
 * ```
 */
export type ConfigParamType = 'string' | 'number' | 'boolean' | 'array';

/**
 * One configuration parameter of a variant.
 *
 * @example
 * ```ts
 * const temperature = variant.config_params.find((param: ConfigParam) => param.name === 'temperature')?.value;
 * ```
 */
export interface ConfigParam {
  /** The parameter's name (`temperature`, `top_k`…). */
  name: string;
  /** Its value, of the type `param_type` names. */
  value: unknown;
  /** The type of `value`. */
  param_type: ConfigParamType;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * A variant that names the prompt to use.
 *
 * @example
 * ```ts
 * if (variant.kind === 'prompt') systemPrompt = variant.prompt;
 * ```
 */
export interface PromptVariant {
  kind: 'prompt';
  /** The prompt of this variant. */
  prompt: string;
  /** Its configuration parameters. */
  config_params: ConfigParam[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * A variant that names the model to use.
 *
 * @example
 * ```ts
 * if (variant.kind === 'model') model = variant.model_id;
 * ```
 */
export interface ModelVariant {
  kind: 'model';
  /** The model of this variant. */
  model_id: string;
  /** Its configuration parameters. */
  config_params: ConfigParam[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * A variant that names the RAG source to use.
 *
 * @example
 * ```ts
 * if (variant.kind === 'rag_source') index = variant.rag_source;
 * ```
 */
export interface RagSourceVariant {
  kind: 'rag_source';
  /** The retrieval source of this variant. */
  rag_source: string;
  /** Its configuration parameters. */
  config_params: ConfigParam[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * A variant of an experiment, told apart by `kind`.
 *
 * @example
 * ```ts
 * const model = variant.kind === 'model' ? variant.model_id : 'gpt-4o';
 * ```
 */
export type Variant = PromptVariant | ModelVariant | RagSourceVariant;

/**
 * The variant the user is in for one feature flag.
 *
 * @example
 * ```ts
 * const chosen = variants.find((found: LookupVariant) => found.feature_flag_name === 'new-prompt');
 * ```
 */
export interface LookupVariant {
  /** The feature flag of the experiment. */
  feature_flag_name: string;
  /** The variant the user is in. */
  variant: Variant;
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}

/**
 * The answer of `nebuly.variants`: every variant the user is in. A flag the user is in no
 * variant of is left out.
 *
 * @example
 * ```ts
 * const { variants }: VariantsResponse = await nebuly.variants({ user, feature_flags: ['new-prompt'] });
 * ```
 */
export interface VariantsResponse {
  /** One per flag the user is in a variant of. */
  variants: LookupVariant[];
  /** Fields the SDK does not know, kept as answered. */
  [field: string]: unknown;
}
