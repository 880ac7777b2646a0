import { z } from 'zod';
import { ADMISSION_NUMBER_MAX, TERM_VALUES } from './constants';
import { ID_MAX } from './ids';
import { nairaToKobo } from './money';
import { admissionNumberKey, foldSignInText } from './sign-in-id';
export type {
  CheckResultOptions,
  CheckResultResponse,
  ResultPinBatch,
  ResultPinBatchDetail,
  ResultPinList,
  ResultPinRow,
} from './result-pin-responses';
import {
  RESULT_PIN_DIGITS,
  RESULT_PIN_BATCH_MAX,
  RESULT_PIN_USES_MAX,
  RESULT_PIN_PRICE_MAX,
  RESULT_PIN_FILTERS,
  RESULT_PIN_MESSAGES,
} from './result-pin-constants';

/**
 * Result-checker PINs (issue 34, decision record 043): scratch cards a school sells so that a parent
 * without an account checks a released report card with the admission number and a PIN.
 */

export {
  RESULT_PIN_DIGITS,
  RESULT_PIN_BATCH_MAX,
  RESULT_PIN_USES_MAX,
  RESULT_PIN_USES_DEFAULT,
  RESULT_PIN_PAGE_SIZE,
  RESULT_PIN_PRICE_MAX,
  CHECK_RESULT_PATH,
  RESULT_PIN_STATES,
  RESULT_PIN_FILTERS,
  CHECK_RESULT_CODES,
  RESULT_PIN_MESSAGES,
} from './result-pin-constants';
export type { ResultPinState, ResultPinFilter } from './result-pin-constants';

/**
 * The one reading of a typed PIN: Unicode NFKC (full-width digits become ASCII), invisible
 * characters removed, then every space, dash and dot between the digit groups; null unless what is
 * left is exactly RESULT_PIN_DIGITS ASCII digits.
 */
export function readPin(raw: string): string | null {
  const digits = foldSignInText(raw).replace(/[\s\p{Z}\p{Pd}\u2212.]/gu, '');
  return new RegExp(`^[0-9]{${RESULT_PIN_DIGITS}}$`).test(digits) ? digits : null;
}

/** A PIN as printed: three groups of four digits ("1234 5678 9012"). */
export function formatPin(pin: string): string {
  return pin.replace(/(\d{4})(?=\d)/g, '$1 ');
}

const toNumber = (v: unknown) => {
  if (v === '' || v === null || v === undefined) return undefined;
  if (typeof v === 'string') return Number(v.trim());
  return v;
};
const idField = (message: string) =>
  z.preprocess(toNumber, z.number({ error: message }).int(message).positive(message).max(ID_MAX, message));

// ---------------------------------------------------------------- admin: batches

export const resultPinBatchCreateSchema = z.object({
  session_id: idField(RESULT_PIN_MESSAGES.sessionRequired),
  /** null: the whole session (any of its terms). */
  term: z.enum(TERM_VALUES, { error: RESULT_PIN_MESSAGES.batchTermInvalid }).nullable(),
  count: z.preprocess(
    toNumber,
    z
      .number({ error: RESULT_PIN_MESSAGES.countInvalid })
      .int(RESULT_PIN_MESSAGES.countInvalid)
      .min(1, RESULT_PIN_MESSAGES.countInvalid)
      .max(RESULT_PIN_BATCH_MAX, RESULT_PIN_MESSAGES.countInvalid),
  ),
  /** Absent: the school's setting `result_pin_uses`. */
  uses: z
    .preprocess(
      toNumber,
      z
        .number({ error: RESULT_PIN_MESSAGES.usesInvalid })
        .int(RESULT_PIN_MESSAGES.usesInvalid)
        .min(1, RESULT_PIN_MESSAGES.usesInvalid)
        .max(RESULT_PIN_USES_MAX, RESULT_PIN_MESSAGES.usesInvalid),
    )
    .optional(),
});
export type ResultPinBatchCreate = z.infer<typeof resultPinBatchCreateSchema>;

export const resultPinSoldSchema = z.object({
  serials: z
    .array(z.string().trim().toUpperCase().min(1).max(20), { error: RESULT_PIN_MESSAGES.serialsRequired })
    .min(1, RESULT_PIN_MESSAGES.serialsRequired)
    .max(RESULT_PIN_BATCH_MAX, RESULT_PIN_MESSAGES.serialsTooMany),
  /** Naira, up to 2 decimals; stored as kobo. */
  price: z.union([z.number(), z.string()], { error: RESULT_PIN_MESSAGES.priceInvalid }).transform((v, ctx) => {
    try {
      const kobo = nairaToKobo(v);
      if (kobo <= RESULT_PIN_PRICE_MAX * 100) return kobo;
    } catch {
      // below
    }
    ctx.addIssue({ code: 'custom', message: RESULT_PIN_MESSAGES.priceInvalid });
    return z.NEVER;
  }),
  sold_to: z.string().trim().max(120, RESULT_PIN_MESSAGES.soldToTooLong).optional(),
});
export type ResultPinSold = z.infer<typeof resultPinSoldSchema>;

export const resultPinListQuerySchema = z.object({
  state: z.enum(RESULT_PIN_FILTERS, { error: RESULT_PIN_MESSAGES.stateInvalid }).optional(),
  page: z
    .preprocess(
      toNumber,
      z
        .number({ error: RESULT_PIN_MESSAGES.pageInvalid })
        .int(RESULT_PIN_MESSAGES.pageInvalid)
        .min(1, RESULT_PIN_MESSAGES.pageInvalid)
        .max(1_000_000, RESULT_PIN_MESSAGES.pageInvalid),
    )
    .optional(),
});

// ---------------------------------------------------------------- public: the check

/**
 * The public check's body. The admission number is read in the one form of sign-in (NFKC, invisible
 * characters removed, spaces, dashes and slashes ignored, upper case: `admissionNumberKey`); the PIN
 * by `readPin`. Both become their keys here, so the service compares keys only.
 */
export const checkResultSchema = z.object({
  admission_number: z
    .string({ error: RESULT_PIN_MESSAGES.admissionRequired })
    .max(4 * ADMISSION_NUMBER_MAX, RESULT_PIN_MESSAGES.admissionInvalid)
    .transform((raw, ctx) => {
      if (foldSignInText(raw) === '') {
        ctx.addIssue({ code: 'custom', message: RESULT_PIN_MESSAGES.admissionRequired });
        return z.NEVER;
      }
      const key = admissionNumberKey(raw);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: RESULT_PIN_MESSAGES.admissionInvalid });
        return z.NEVER;
      }
      return key;
    }),
  pin: z
    .string({ error: RESULT_PIN_MESSAGES.pinRequired })
    .max(200, RESULT_PIN_MESSAGES.pinInvalid)
    .transform((raw, ctx) => {
      if (foldSignInText(raw) === '') {
        ctx.addIssue({ code: 'custom', message: RESULT_PIN_MESSAGES.pinRequired });
        return z.NEVER;
      }
      const pin = readPin(raw);
      if (!pin) {
        ctx.addIssue({ code: 'custom', message: RESULT_PIN_MESSAGES.pinInvalid });
        return z.NEVER;
      }
      return pin;
    }),
  session_id: idField(RESULT_PIN_MESSAGES.sessionRequired),
  term: z.enum(TERM_VALUES, { error: RESULT_PIN_MESSAGES.termRequired }),
});
/** The body as the server reads it: `admission_number` is the number's key, `pin` its 12 digits. */
export type CheckResultInput = z.infer<typeof checkResultSchema>;

export const checkResultPdfQuerySchema = z.object({
  token: z
    .string({ error: RESULT_PIN_MESSAGES.tokenInvalid })
    .min(1, RESULT_PIN_MESSAGES.tokenInvalid)
    .max(600, RESULT_PIN_MESSAGES.tokenInvalid),
});
