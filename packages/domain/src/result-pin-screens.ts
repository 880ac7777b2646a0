/**
 * The words of the result-checker PIN screens (issue 34, items 8-10): the admin's batches
 * (/result-pins, /result-pins/:id, the bursar marks cards sold) and the public /check-result page.
 * The server's own messages (its refusals) come with its answers; these are the screens' words and
 * the fallbacks when an answer carries none.
 */
import { formatNaira } from './money';

export const RESULT_PIN_SCREENS = {
  batches: {
    to: '/result-pins',
    title: 'Result-checker PINs',
    label: 'Result-checker PINs',
    description: 'Scratch-card PINs: generate, print, mark sold',
  },
  check: { to: '/check-result', title: 'Check a Result with a PIN', label: 'Check your result with a PIN' },
} as const;

/** The digits of a PIN (12, printed in groups of four); the field accepts spaces and dashes. */
export const PIN_DIGITS = 12;

/** A PIN as typed ("1234 5678-9012") reduced to its digits. */
export function normalisePin(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** True when the typed PIN, without spaces and dashes, is exactly PIN_DIGITS digits. */
export function pinLooksRight(typed: string): boolean {
  return new RegExp(`^\\d{${PIN_DIGITS}}$`).test(normalisePin(typed));
}

/** A PIN as printed and shown: groups of four digits. */
export function groupPin(pin: string): string {
  return normalisePin(pin).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * A serial range typed by the bursar ("A0001-A0050, A0075") as the serials it names. A range keeps
 * the prefix and the digits' width of its first end. Returns null when a piece cannot be read, or
 * when a range runs backwards or across prefixes. At most `max` serials.
 */
export function expandSerials(typed: string, max = 5000): string[] | null {
  const out: string[] = [];
  for (const raw of typed.split(/[,\n;]+/)) {
    const piece = raw.trim();
    if (!piece) continue;
    const range = /^([A-Za-z]*)(\d+)\s*(?:-|–|to)\s*([A-Za-z]*)(\d+)$/.exec(piece);
    if (range) {
      const [, p1 = '', a = '', p2 = '', b = ''] = range;
      if ((p2 && p2.toUpperCase() !== p1.toUpperCase()) || Number(b) < Number(a)) return null;
      for (let n = Number(a); n <= Number(b); n++) {
        out.push(`${p1.toUpperCase()}${String(n).padStart(a.length, '0')}`);
        if (out.length > max) return null;
      }
      continue;
    }
    if (!/^[A-Za-z]*\d+$/.test(piece)) return null;
    out.push(piece.toUpperCase());
    if (out.length > max) return null;
  }
  return out.length ? [...new Set(out)] : null;
}

export const PIN_STATE_LABELS = {
  unused: 'Unused',
  used: 'Used',
  exhausted: 'Used up',
  sold: 'Sold',
} as const;
export type PinState = keyof typeof PIN_STATE_LABELS;
export const PIN_STATES = Object.keys(PIN_STATE_LABELS) as PinState[];

export const RESULT_PIN_LABELS = {
  newBatch: 'Generate a batch',
  session: 'Session',
  term: 'Term',
  wholeSession: 'Whole session (every term)',
  count: 'Number of cards',
  countHint: 'From 1 to 5,000 cards.',
  uses: 'Uses per PIN',
  usesHint: 'How many times one PIN can be used to check a result (1 to 50).',
  generate: 'Generate PINs',
  generating: 'Generating...',
  batches: 'Batches',
  noBatches: 'No batches yet.',
  batch: 'Batch',
  created: 'Created',
  cards: 'Cards',
  sold: 'Sold',
  used: 'Used',
  unused: 'Unused',
  exhausted: 'Used up',
  open: 'Open',
  sealed: 'Sealed',
  printable: 'Printable',
  downloadSheet: 'Download sheet (PDF)',
  downloadCsv: 'Download CSV for the printer',
  seal: 'Seal the batch',
  sealing: 'Sealing...',
  sealConfirm:
    'Sealing deletes the printable copy of the PINs: the sheet and the CSV can no longer be downloaded. Print and check the cards first.',
  sealedNote: 'This batch is sealed: its PINs can no longer be printed.',
  markSold: 'Mark cards sold',
  byRange: 'Serial numbers',
  serialsHint: 'A range such as A0001-A0050, or serials separated by commas.',
  picked: 'Picked from the list',
  pickedCount: (n: number) => `${n} card${n === 1 ? '' : 's'} picked`,
  pick: (serial: string) => `Pick card ${serial}`,
  price: 'Price per card (₦)',
  soldTo: 'Sold to (optional)',
  soldToHint: 'A parent, an agent or a shop.',
  markSoldButton: 'Mark sold',
  marking: 'Saving...',
  pins: 'Cards',
  state: 'State',
  all: 'All',
  serial: 'Serial',
  usesLeft: 'Uses left',
  boundTo: 'Used for',
  soldAt: 'Sold on',
  soldBy: 'Sold by',
  priceShort: 'Price',
  noPins: 'No cards in this state.',
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  backToBatches: '← All batches',
  // Public page
  checkIntro: 'Enter the admission number, the PIN on your scratch card, and the session and term of the result.',
  admission: 'Admission number',
  pin: 'PIN',
  pinHint: 'The 12 digits under the scratch panel. Spaces and dashes are fine.',
  checkButton: 'Check result',
  checking: 'Checking...',
  usesLeftOf: (n: number) => `This PIN can be used ${n} more time${n === 1 ? '' : 's'}.`,
  noUsesLeft: 'This was the last use of this PIN.',
  downloadPdf: 'Download PDF',
  print: 'Print',
  checkAnother: 'Check another result',
  signInInstead: 'Have an account? Sign in',
  linkFromLogin: 'No account? Check a result with a scratch-card PIN',
  owed: 'Outstanding',
  required: 'Needed to open the card',
  paid: 'Paid',
} as const;

export const RESULT_PIN_MESSAGES = {
  loadFailed: 'Could not load the PIN batches. Please try again.',
  batchFailed: 'Could not load this batch. Please try again.',
  pinsFailed: 'Could not load the cards of this batch. Please try again.',
  generateFailed: 'Could not generate the batch. Please try again.',
  generated: (count: number) => `Batch generated: ${count.toLocaleString('en-NG')} PINs.`,
  countRange: 'Enter a number of cards from 1 to 5,000.',
  usesRange: 'Enter a number of uses from 1 to 50.',
  sessionNeeded: 'Choose the session.',
  downloadFailed: 'Could not download the file. Please try again.',
  sealFailed: 'Could not seal the batch. Please try again.',
  sealedDone: 'Batch sealed. The printable copy of its PINs is deleted.',
  soldFailed: 'Could not mark the cards sold. Please try again.',
  soldDone: (n: number) => `${n} card${n === 1 ? '' : 's'} marked sold.`,
  serialsUnreadable: 'Could not read the serial numbers. Use a range such as A0001-A0050, or serials separated by commas.',
  serialsNeeded: 'Enter the serial numbers or pick cards from the list.',
  priceNeeded: 'Enter the price per card in naira (0 or more).',
  notEnabled:
    'Checking results with a PIN is not available at this school. Please sign in to the portal, or ask the school for your child’s report card.',
  optionsFailed: 'Could not load this page. Please check your connection and try again.',
  admissionNeeded: 'Enter the admission number.',
  pinNeeded: 'Enter the 12-digit PIN from your scratch card.',
  pinShape: 'A PIN has 12 digits. Please check the card and type it again.',
  sessionTermNeeded: 'Choose the session and the term.',
  wrongPin: 'The admission number or the PIN is not right. Please check both and try again.',
  wrongPinTitle: 'Not found',
  exhausted: 'This PIN has been used as many times as it allows. Please buy a new scratch card from the school.',
  exhaustedTitle: 'PIN used up',
  boundElsewhere: 'This PIN has already been used for another student. A PIN checks one student’s results only.',
  boundTitle: 'PIN belongs to another student',
  wrongTerm: 'This PIN is for another session or term. Please choose the session and term printed on the card.',
  notReleased: 'This result has not been released yet. Please check again after the school releases it; the PIN was not used.',
  notReleasedTitle: 'Not released yet',
  throttled: 'Too many wrong tries. Please wait a few minutes and try again.',
  throttledIn: (minutes: number) =>
    `Too many wrong tries. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
  throttledTitle: 'Please wait',
  feesTitle: 'School fees outstanding',
  fees: (owed: number) =>
    `This report card opens once the term’s fees are paid. Outstanding: ${formatNaira(owed)}. Please pay the school, then check again.`,
  checkFailed: 'Could not check the result. Please check your connection and try again.',
  pdfFailed: 'Could not download the PDF. Please try again.',
} as const;

/**
 * The codes the check answers with (the pins module's refusals), each with its title and words.
 * The server's `detail` is shown when it gives one; these are the fallbacks.
 */
export const CHECK_RESULT_CODES = {
  pin_invalid: { title: RESULT_PIN_MESSAGES.wrongPinTitle, text: RESULT_PIN_MESSAGES.wrongPin },
  pin_exhausted: { title: RESULT_PIN_MESSAGES.exhaustedTitle, text: RESULT_PIN_MESSAGES.exhausted },
  pin_bound: { title: RESULT_PIN_MESSAGES.boundTitle, text: RESULT_PIN_MESSAGES.boundElsewhere },
  pin_wrong_term: { title: RESULT_PIN_MESSAGES.wrongPinTitle, text: RESULT_PIN_MESSAGES.wrongTerm },
  not_released: { title: RESULT_PIN_MESSAGES.notReleasedTitle, text: RESULT_PIN_MESSAGES.notReleased },
  throttled: { title: RESULT_PIN_MESSAGES.throttledTitle, text: RESULT_PIN_MESSAGES.throttled },
} as const;
