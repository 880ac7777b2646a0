import { z } from 'zod';
import { FEE_GATE_MESSAGES } from './card-fee-gate';
import { admissionNumberField, sessionIdField, termField } from './result-schemas';

// ---------- releases: a card opened regardless of fees ----------

export const cardFeeReleaseSchema = z.object({
  admission_number: admissionNumberField,
  session_id: sessionIdField,
  term: termField,
  reason: z
    .string({ error: FEE_GATE_MESSAGES.reasonRequired })
    .trim()
    .min(1, FEE_GATE_MESSAGES.reasonRequired)
    .max(300, FEE_GATE_MESSAGES.reasonTooLong),
});
export type CardFeeReleaseInput = z.infer<typeof cardFeeReleaseSchema>;

export const cardFeeReleaseQuerySchema = z.object({ session_id: sessionIdField, term: termField.optional() });
