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

/**
 * Result-checker PINs (issue 34, decision record 043): scratch cards a school sells so that a parent
 * without an account checks a released report card with the admission number and a PIN.
 */

/** Digits of a PIN: 10^12 of them, drawn by the server from a cryptographically secure source. */
export const RESULT_PIN_DIGITS = 12;
/** Cards in one batch, and uses of one PIN (the school's default is the setting `result_pin_uses`). */
export const RESULT_PIN_BATCH_MAX = 5000;
export const RESULT_PIN_USES_MAX = 50;
export const RESULT_PIN_USES_DEFAULT = 5;
/** Rows of one page of a batch's PIN list. */
export const RESULT_PIN_PAGE_SIZE = 50;
/** The highest price a card may be sold for (naira). */
export const RESULT_PIN_PRICE_MAX = 100_000;
/** The public check page's path: printed on every card after the school's address. */
export const CHECK_RESULT_PATH = '/check-result';

export const RESULT_PIN_STATES = ['unused', 'used', 'exhausted'] as const;
export type ResultPinState = (typeof RESULT_PIN_STATES)[number];
/** The list filter: a state, or the cards marked sold. */
export const RESULT_PIN_FILTERS = ['unused', 'used', 'exhausted', 'sold'] as const;
export type ResultPinFilter = (typeof RESULT_PIN_FILTERS)[number];

/** What a check answers when refused: the stable codes a client may branch on. */
export const CHECK_RESULT_CODES = {
  /** A wrong PIN or an admission number of no student: one answer for both (no oracle). */
  wrong: 'pin_or_number_wrong',
  boundToAnother: 'pin_bound_to_another_student',
  exhausted: 'pin_exhausted',
  otherTerm: 'pin_for_another_term',
  disabled: 'result_pins_disabled',
  throttled: 'too_many_attempts',
  notReleased: 'not_released',
} as const;

export const RESULT_PIN_MESSAGES = {
  disabled: 'Checking results with a PIN is not open at this school.',
  /** The one answer for a wrong PIN and an unknown admission number. */
  wrongPinOrNumber: 'The admission number or the PIN is not correct. Check both and try again.',
  boundToAnother: 'This PIN has already been used for another student. A PIN checks the results of one student only.',
  exhausted: 'This PIN has been used as many times as it allows. Buy a new card from the school.',
  otherTerm: 'This PIN is for another session or term. Choose the session and term printed on the card.',
  notReleased: 'This report card has not been released yet. Try again after the school releases results.',
  tooManyAttempts: (minutes: number) =>
    `Too many wrong attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, or ask the school for help.`,
  admissionRequired: 'Enter the admission number.',
  admissionInvalid: 'Enter the admission number as it is printed on the student’s records (e.g. STU-0001).',
  pinRequired: 'Enter the PIN.',
  pinInvalid: `Enter the ${RESULT_PIN_DIGITS}-digit PIN printed on the card.`,
  sessionRequired: 'Choose the session.',
  termRequired: 'Choose the term.',
  tokenInvalid: 'This download link has expired. Check the result again to download the report card.',
  batchNotFound: 'No PIN batch with this id.',
  countInvalid: `Enter a number of PINs from 1 to ${RESULT_PIN_BATCH_MAX}.`,
  usesInvalid: `Enter a number of uses from 1 to ${RESULT_PIN_USES_MAX}.`,
  batchTermInvalid: 'Choose 1st, 2nd or 3rd term, or the whole session.',
  sessionNotFound: 'No session with this id.',
  sealed: 'This batch is sealed: its PINs were erased after printing and cannot be shown again.',
  alreadySealed: 'This batch is already sealed.',
  serialsRequired: 'Choose at least one card.',
  serialsTooMany: `Mark at most ${RESULT_PIN_BATCH_MAX} cards at once.`,
  serialsUnknown: (serials: readonly string[]) =>
    `Not cards of this batch: ${serials.slice(0, 10).join(', ')}${serials.length > 10 ? '…' : ''}.`,
  serialsSold: (serials: readonly string[]) => `Already marked sold: ${serials.slice(0, 10).join(', ')}${serials.length > 10 ? '…' : ''}.`,
  priceInvalid: `Enter a price from ₦0 to ₦${RESULT_PIN_PRICE_MAX.toLocaleString('en-NG')}, with at most 2 decimals.`,
  soldToTooLong: 'The buyer’s name is too long (at most 120 characters).',
  stateInvalid: 'Choose used, unused, exhausted or sold.',
  pageInvalid: 'Enter a page number from 1.',
} as const;

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
