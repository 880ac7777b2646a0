import { z } from 'zod';
import { ADMISSION_NUMBER_MAX, ADMISSION_NUMBER_PATTERN } from './constants';
import { GENERAL_MESSAGES } from './http';
import { PEOPLE_MESSAGES } from './people-constants';

/**
 * The one rule of an admission number typed on any screen: trimmed, upper case, 1 to
 * ADMISSION_NUMBER_MAX characters of letters, digits, hyphens and slashes, starting with a letter or
 * digit (STU-0001, or a school's own format such as RMC/2026/0012). Each screen keeps its own
 * messages (the results form's are the spec's), so the schema is made from them.
 */
export function admissionNumberWith(messages: { required: string; invalid: string }) {
  return (
    z
      .string({ error: messages.required })
      .trim()
      .toUpperCase()
      .min(1, messages.required)
      .max(ADMISSION_NUMBER_MAX, messages.invalid)
      // An empty value gets only the "required" message.
      .refine((v) => v === '' || ADMISSION_NUMBER_PATTERN.test(v), messages.invalid)
  );
}

/** The largest id a row can have (PostgreSQL `integer`): a larger one names no record and must not reach a query. */
export const ID_MAX = 2_147_483_647;

/** `:id` of every route: a positive whole number within ID_MAX, so "abc", "-1" or "1e99" is a 400 before any service. */
export const idParams = z.object({
  id: z.coerce
    .number({ error: GENERAL_MESSAGES.invalidId })
    .int(GENERAL_MESSAGES.invalidId)
    .positive(GENERAL_MESSAGES.invalidId)
    .max(ID_MAX, GENERAL_MESSAGES.invalidId),
});

/** `:admission_number`: the same rule as every admission number field (trimmed, upper case, the school's characters). */
export const admissionNumberParams = z.object({
  admission_number: admissionNumberWith({
    required: PEOPLE_MESSAGES.admissionNumberRequired,
    invalid: PEOPLE_MESSAGES.invalidAdmissionNumber,
  }),
});

/**
 * `:staff_id`: trimmed, upper case, letters, digits and hyphens. Looser than the STAFF-0001 format on
 * purpose: the find screens send a typed internal id (digits) here first and fall back to
 * `/staff/id/{id}/` on its 404, which a 400 would break.
 */
export const staffIdParams = z.object({
  staff_id: z
    .string({ error: PEOPLE_MESSAGES.staffIdRequired })
    .trim()
    .toUpperCase()
    .min(1, PEOPLE_MESSAGES.staffIdRequired)
    .max(40, PEOPLE_MESSAGES.invalidStaffId)
    .regex(/^[A-Z0-9][A-Z0-9-]*$/, PEOPLE_MESSAGES.invalidStaffId),
});
