/**
 * Words of the bursar's office screens that the server never says: field labels, column
 * headings, buttons and the screens' own failures. The server's messages, method labels and the
 * screens' titles are in bursary.ts.
 */
import { formatNaira } from './money';

export const BURSARY_SCREEN_LABELS = {
  admissionNumber: 'Admission number',
  session: 'Session',
  term: 'Term',
  general: 'General (whole session)',
  amount: 'Amount (₦)',
  amountHint: 'Between ₦100 and ₦5,000,000',
  method: 'How it was paid',
  bank: 'Bank',
  bankReference: 'Bank reference',
  bankReferenceHint: 'The teller or transfer number',
  paidOn: 'Date paid',
  note: 'Note (optional)',
  scan: 'Scan of the teller or slip (optional)',
  scanHint: 'PNG, JPEG or PDF, at most 2 MB',
  removeScan: 'Remove scan',
  record: 'Record payment',
  recordAnother: 'Record another',
  viewReceipt: 'View receipt',
  student: 'Student',
  class: 'Class',
  outstanding: 'Outstanding this session',
  charged: 'Charged',
  paid: 'Paid',
  balance: 'Balance',
  from: 'From',
  to: 'To',
  anyMethod: 'Any method',
  anySession: 'Any session',
  filter: 'Show',
  open: 'Open',
  receipt: 'Receipt',
  date: 'Date',
  description: 'Description',
  debit: 'Charge',
  credit: 'Payment',
  bankAndReference: 'Bank / reference',
  recordedBy: 'Recorded by',
  scanColumn: 'Scan',
  viewScan: 'View scan',
  reverse: 'Reverse',
  reversal: 'Reversal',
  reversedBy: (receipt: string) => `Reversed by ${receipt}`,
  reverses: (receipt: string) => `Reverses ${receipt}`,
  /** A payment recorded again with the reference of a reversed one. */
  replaces: (receipt: string) => `Replaces ${receipt}`,
  bankHint: 'Start typing: choose the bank from the list',
  reviewsTitle: 'Recorded twice? To review',
  reviewsIntro:
    'The upgrade found these entries sharing a bank reference with an older one (the bank or the reference written differently). Nothing was deleted: reverse any that was recorded twice.',
  reviewLine: (later: string, holder: string) => `${later} has the same bank reference as ${holder}`,
  reportLabel: (id: number) => `transfer report #${id}`,
  reason: 'Reason for the reversal',
  confirmReverse: 'Reverse payment',
  reverseQuestion: (receipt: string, amount: number, name: string) =>
    `Reverse ${receipt} (${formatNaira(amount)}, ${name})? A reversal entry of the negative amount is added; the payment stays in the ledger.`,
  downloadCsv: 'Download CSV',
  print: 'Print',
  total: 'Total',
  entries: (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`,
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  staffMember: 'Staff member',
  email: 'Email',
  saveRow: 'Save',
  saved: 'Saved',
  statementOf: 'Statement of account',
  // Fees not yet due on the statement (fees-due.ts)
  upcoming: 'Not yet due',
  upcomingHint: 'These fees fall due on the day shown; they are not part of the balance until then.',
  fallsDue: 'Falls due',
  asOf: (date: string) => `Balance as of ${date}`,
} as const;

export const BURSARY_SCREEN_MESSAGES = {
  correctErrors: 'Please correct the errors below.',
  lookupFailed: 'Could not look up the student. Please try again.',
  studentNotFound: 'No student with this admission number.',
  recordFailed: 'Could not record the payment. Please try again.',
  clashWith: 'Already recorded as:',
  ledgerFailed: 'Could not load the ledger. Please try again.',
  noEntries: 'No payments match these filters.',
  statementFailed: 'Could not load the statement. Please try again.',
  noLines: 'No charges or payments in this session yet.',
  chooseStudent: 'Enter an admission number and choose a session.',
  reverseFailed: 'Could not reverse the payment. Please try again.',
  scanFailed: 'Could not open the scan. Please try again.',
  csvFailed: 'Could not download the ledger. Please try again.',
  capabilitiesFailed: 'Could not load the staff. Please try again.',
  capabilitiesSaveFailed: 'Could not save. Please try again.',
  noStaff: 'No staff members yet.',
  scanReadFailed: 'Could not read the file. Please choose it again.',
  bursarPageRefused: (path: string) =>
    `You cannot open ${path}: that page is only for the bursar and administrators. You have been brought to your home page.`,
} as const;

/** The student's own statement: the menu entry and its route. */
export const MY_STATEMENT_SCREEN = {
  to: '/my-statement',
  title: 'My Statement',
  label: 'My Statement',
  description: 'Your fees, payments and balance',
} as const;

/** The fee item screens the bursar reaches too (the admin's today). */
export const BURSARY_FEE_SCREENS = {
  schedules: { to: '/payments/fee-schedules', label: 'Fee Schedules', description: 'What each class owes per term' },
  payments: { to: '/PaymentForm', label: 'Fee Payments', description: 'History and class payment reports' },
} as const;
