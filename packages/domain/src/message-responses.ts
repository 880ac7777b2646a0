import { z } from 'zod';

/** An answer that is only a sentence for the user: `{ detail }` (a 2xx; the error envelopes are apart). */
export const detailMessageSchema = z.object({ detail: z.string() }).meta({ id: 'DetailMessage' });
