import * as z from 'zod/mini';
import { nonEmptyString, timestamp } from './common.js';
import { capIssues } from './issues.js';
import { FILTER_KINDS } from './wire-fields.js';

export { FILTER_KINDS };

/** One filter of interaction deletion; its `values` are OR'd. */
export const interactionFilterSchema = z
  .object({
    kind: z.enum(FILTER_KINDS),
    tag: z.optional(nonEmptyString),
    values: z.array(z.string()).check(z.minLength(1, 'must list at least one value'), capIssues),
  })
  .check(
    z.superRefine((filter, ctx) => {
      if (filter.kind === 'tag' && filter.tag === undefined) {
        ctx.issues.push({
          code: 'custom',
          path: ['tag'],
          message: "is required when kind is 'tag'",
          input: filter,
        });
      } else if (filter.kind !== 'tag' && filter.tag !== undefined) {
        ctx.issues.push({
          code: 'custom',
          path: ['tag'],
          message: "is only used when kind is 'tag'",
          input: filter.tag,
        });
      }
    }),
  );

/** A time window: `start` inclusive, `end` exclusive; either may be left out. */
export const timeRangeSchema = z
  .object({
    start: z.optional(timestamp),
    end: z.optional(timestamp),
  })
  .check(
    z.superRefine((range, ctx) => {
      if (
        range.start !== undefined &&
        range.end !== undefined &&
        Date.parse(range.start) > Date.parse(range.end)
      ) {
        ctx.issues.push({
          code: 'custom',
          path: ['end'],
          message: 'must not be before start',
          input: range.end,
        });
      }
    }),
  );

/**
 * Body of `nebuly.interactions.delete`. With no filter at all, every
 * interaction of the project (within `time_range`, if given) is deleted.
 */
export const deleteInteractionsParamsSchema = z.object({
  filters: z._default(z.array(interactionFilterSchema).check(capIssues), []),
  time_range: z.optional(timeRangeSchema),
});
