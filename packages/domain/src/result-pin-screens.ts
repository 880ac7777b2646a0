/**
 * The words of the result-checker PIN screens (issue 34, items 8-10): the admin's batches
 * (/result-pins, /result-pins/:id, the bursar marks cards sold) and the public /check-result page.
 * The server's own messages (its refusals) come with its answers; these are the screens' words and
 * the fallbacks when an answer carries none.
 */
import { formatNaira } from './money';
import { CHECK_RESULT_CODES, RESULT_PIN_FILTERS, RESULT_PIN_MESSAGES, type ResultPinFilter } from './result-pin-constants';

export const RESULT_PIN_SCREENS = {
  batches: {
    to: '/result-pins',
    title: 'Result-checker PINs',
    label: 'Result-checker PINs',
    description: 'Scratch-card PINs: generate, print, mark sold',
  },
  check: { to: '/check-result', title: 'Check a Result with a PIN', label: 'Check your result with a PIN' },
} as const;

/** One end of a range: the serial's prefix (the batch, with its dash) and its card number's digits. */
function serialEnd(end: string): { prefix: string; digits: string } | null {
  const m = /^([A-Za-z0-9-]*?)(\d+)$/.exec(end.trim());
  return m ? { prefix: (m[1] ?? '').toUpperCase(), digits: m[2] ?? '' } : null;
}

/** A range's two ends: "X to Y", "X – Y", "X .. Y", "X - Y" (spaced), or "A0001-A0050" (ends of one width). */
function rangeEnds(piece: string): [string, string] | null {
  const spaced = /^(.+?)\s*(?:\s-\s|–|—|\.\.|\sto\s)\s*(.+)$/i.exec(piece);
  if (spaced) return [spaced[1] ?? '', spaced[2] ?? ''];
  const parts = piece.split('-');
  if (parts.length === 2 && parts[0]!.length === parts[1]!.length && /^[A-Za-z]*\d+$/.test(parts[0]!) && /^[A-Za-z]*\d+$/.test(parts[1]!))
    return [parts[0]!, parts[1]!];
  return null;
}

/**
 * The serials the bursar typed ("0007-00001 to 0007-00050, 0007-00075"; "A0001-A0050") as the list
 * they name. A range keeps its first end's prefix and digits' width (the second end may give only its
 * number: "0007-00001 to 50"). Null when a piece cannot be read, or a range runs backwards or across
 * prefixes; at most `max` serials.
 */
export function expandSerials(typed: string, max = 5000): string[] | null {
  const out: string[] = [];
  for (const raw of typed.split(/[,\n;]+/)) {
    const piece = raw.trim();
    if (!piece) continue;
    const ends = rangeEnds(piece);
    if (ends) {
      const a = serialEnd(ends[0]);
      const b = serialEnd(ends[1]);
      if (!a || !b || (b.prefix && b.prefix !== a.prefix) || Number(b.digits) < Number(a.digits)) return null;
      for (let n = Number(a.digits); n <= Number(b.digits); n++) {
        out.push(`${a.prefix}${String(n).padStart(a.digits.length, '0')}`);
        if (out.length > max) return null;
      }
      continue;
    }
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(piece)) return null;
    out.push(piece.toUpperCase());
    if (out.length > max) return null;
  }
  return out.length ? [...new Set(out)] : null;
}

/** The list's filters (the pins module's) as the screens name them. */
export const PIN_STATE_LABELS: Record<ResultPinFilter, string> = {
  unused: 'Unused',
  used: 'Used',
  exhausted: 'Used up',
  sold: 'Sold',
};
export const PIN_STATES: readonly ResultPinFilter[] = RESULT_PIN_FILTERS;

export const RESULT_PIN_LABELS = {
  settings: 'Checking results with a PIN',
  enabledLabel: 'Parents may check results with a scratch-card PIN',
  enabledOnHint: 'On: the public page /check-result is open, and the home and sign-in pages link to it.',
  enabledOffHint: 'Off: the public page says checking with a PIN is not available. Batches can still be made and printed.',
  defaultUses: 'Uses per PIN for new batches',
  saveSettings: 'Save',
  saving: 'Saving...',
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
  serialsHint: 'A range such as 0007-00001 to 0007-00050, or serials separated by commas.',
  picked: 'Picked from the list',
  pickShort: 'Pick to sell',
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
  soldToShort: 'Sold to',
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

export const RESULT_PIN_SCREEN_MESSAGES = {
  settingsSaved: 'Saved.',
  settingsFailed: 'Could not save. Please try again.',
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
  serialsUnreadable: 'Could not read the serial numbers. Use a range such as 0007-00001 to 0007-00050, or serials separated by commas.',
  serialsNeeded: 'Enter the serial numbers or pick cards from the list.',
  priceNeeded: 'Enter the price per card in naira (0 or more).',
  optionsFailed: 'Could not load this page. Please check your connection and try again.',
  notEnabled: `${RESULT_PIN_MESSAGES.disabled} Please sign in to the portal, or ask the school for the report card.`,
  wrongPinTitle: 'Not found',
  otherTermTitle: 'Another term’s PIN',
  disabledTitle: 'Not available',
  exhaustedTitle: 'PIN used up',
  boundTitle: 'PIN belongs to another student',
  notReleasedTitle: 'Not released yet',
  throttled: 'Too many wrong attempts. Wait a few minutes and try again, or ask the school for help.',
  throttledTitle: 'Please wait',
  feesTitle: 'School fees outstanding',
  fees: (owed: number) =>
    `This report card opens once the term’s fees are paid. Outstanding: ${formatNaira(owed)}. Please pay the school, then check again.`,
  checkFailed: 'Could not check the result. Please check your connection and try again.',
  pdfFailed: 'Could not download the PDF. Please try again.',
} as const;

/**
 * The check's refusals by the pins module's codes, each with its title and words (the server's
 * `detail` is shown when it gives one; these are the fallbacks).
 */
export const CHECK_REFUSALS: Record<string, { title: string; text: string }> = {
  [CHECK_RESULT_CODES.wrong]: { title: RESULT_PIN_SCREEN_MESSAGES.wrongPinTitle, text: RESULT_PIN_MESSAGES.wrongPinOrNumber },
  [CHECK_RESULT_CODES.exhausted]: { title: RESULT_PIN_SCREEN_MESSAGES.exhaustedTitle, text: RESULT_PIN_MESSAGES.exhausted },
  [CHECK_RESULT_CODES.boundToAnother]: { title: RESULT_PIN_SCREEN_MESSAGES.boundTitle, text: RESULT_PIN_MESSAGES.boundToAnother },
  [CHECK_RESULT_CODES.otherTerm]: { title: RESULT_PIN_SCREEN_MESSAGES.otherTermTitle, text: RESULT_PIN_MESSAGES.otherTerm },
  [CHECK_RESULT_CODES.notReleased]: { title: RESULT_PIN_SCREEN_MESSAGES.notReleasedTitle, text: RESULT_PIN_MESSAGES.notReleased },
  [CHECK_RESULT_CODES.throttled]: { title: RESULT_PIN_SCREEN_MESSAGES.throttledTitle, text: RESULT_PIN_SCREEN_MESSAGES.throttled },
  [CHECK_RESULT_CODES.disabled]: { title: RESULT_PIN_SCREEN_MESSAGES.disabledTitle, text: RESULT_PIN_SCREEN_MESSAGES.notEnabled },
};
