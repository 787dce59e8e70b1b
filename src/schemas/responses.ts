import * as z from 'zod/mini';

/** An answer that carries a confirmation message. */
export const messageResponseSchema = z.looseObject({
  message: z.string(),
});
