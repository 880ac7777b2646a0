/**
 * Result-checker PINs' limits, codes and messages (issue 34), apart from result-pins.ts's zod
 * schemas: the screens' words (result-pin-screens.ts, in the web's route table) import this module
 * alone, so the first JavaScript of every page holds no zod schema (bench/web.ts checks it).
 * result-pins.ts re-exports all of it.
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
