/**
 * The result-checker PINs' answers as zod schemas (issue 37 item 12): batches, their cards, a sale,
 * and the public check. The types of result-pins.ts are inferred from these (re-exported as types).
 */
import { z } from 'zod';
import { TERM_VALUES } from './constants';
import { reportCardSchema } from './report-card-responses';

const term = z.enum(TERM_VALUES);

export const resultPinBatchSchema = z
  .object({
    id: z.number(),
    session_id: z.number(),
    session_name: z.string(),
    term: term.nullable(),
    count: z.number(),
    uses: z.number(),
    created_at: z.string(),
    /** The admin's name. */
    created_by: z.string().nullable(),
    /** Whether the PINs can still be printed (the batch is not sealed). */
    printable: z.boolean(),
    sealed_at: z.string().nullable(),
  })
  .meta({ id: 'ResultPinBatch' });
export type ResultPinBatch = z.infer<typeof resultPinBatchSchema>;

export const resultPinBatchDetailSchema = resultPinBatchSchema
  .extend({ sold: z.number(), used: z.number(), unused: z.number(), exhausted: z.number() })
  .meta({ id: 'ResultPinBatchDetail' });
export type ResultPinBatchDetail = z.infer<typeof resultPinBatchDetailSchema>;

export const resultPinRowSchema = z
  .object({
    serial: z.string(),
    state: z.enum(['unused', 'used', 'exhausted']),
    uses: z.number(),
    uses_left: z.number(),
    bound_admission_number: z.string().nullable(),
    sold: z.boolean(),
    sold_at: z.string().nullable(),
    /** The name of whoever marked it sold. */
    sold_by: z.string().nullable(),
    sold_to: z.string().nullable(),
    /** Naira; null until sold. */
    price: z.number().nullable(),
  })
  .meta({ id: 'ResultPinRow' });
export type ResultPinRow = z.infer<typeof resultPinRowSchema>;

export const resultPinListSchema = z
  .object({ count: z.number(), page: z.number(), page_size: z.number(), results: z.array(resultPinRowSchema) })
  .meta({ id: 'ResultPinList' });
export type ResultPinList = z.infer<typeof resultPinListSchema>;

/** POST /api/result-pins/batches/{id}/sold/: how many cards were marked sold. */
export const resultPinsSoldSchema = z.object({ sold: z.number() }).meta({ id: 'ResultPinsSold' });

export const checkResultOptionsSchema = z
  .object({
    enabled: z.boolean(),
    /** Sessions with released cards, newest first, and their terms with a release. */
    sessions: z.array(z.object({ id: z.number(), name: z.string(), terms: z.array(term) })),
  })
  .meta({ id: 'CheckResultOptions' });
export type CheckResultOptions = z.infer<typeof checkResultOptionsSchema>;

export const checkResultResponseSchema = z
  .object({
    card: reportCardSchema,
    uses_left: z.number(),
    /** For GET /api/check-result/pdf/?token=: the same card as a PDF for a few minutes, no extra use. */
    pdf_token: z.string(),
  })
  .meta({ id: 'CheckResultResponse' });
export type CheckResultResponse = z.infer<typeof checkResultResponseSchema>;
