/**
 * Words of the reported-transfer screens that the server never says: the
 * student's "Report a Payment" and the bursar's "Payments to Confirm". The server's messages,
 * statuses are in transfer-reports.ts; shared field labels in bursary-screens.ts. The screens' paths
 * and titles are here, not beside the zod schemas of transfer-reports.ts (which re-exports them): the
 * app's route table and home menus import them, and a module of schemas would put zod in the first
 * JavaScript every page loads.
 */
import { formatNaira } from './money';

export const TRANSFER_REPORT_SCREEN_LABELS = {
  newReport: 'Report a payment you made',
  method: 'How you paid',
  // One name for it on every screen: the bursar's record form says the same.
  bankReference: 'Bank reference',
  bankReferenceHint: 'The transaction or teller number, as printed on the slip or shown in your bank app',
  paidOn: 'Date paid',
  term: 'For which term',
  slip: 'Photo of the slip or transfer receipt',
  slipHint: 'Take a photo or choose a PNG, JPEG or PDF file, at most 2 MB',
  send: 'Send to the bursar',
  myReports: 'My reports',
  reportedOn: 'Reported',
  note: 'Note',
  noteOptional: 'Note for the bursar (optional)',
  reason: 'Reason',
  viewReceipt: 'View receipt',
  viewSlip: 'View slip',
  status: 'Status',
  everyReport: 'All reports',
  confirm: 'Confirm',
  reject: 'Reject',
  rejectReason: 'Reason (the student reads it)',
  confirmReject: 'Reject report',
  rejectQuestion: (amount: number, name: string, reference: string) =>
    `Reject the report of ${formatNaira(amount)} by ${name} (reference ${reference})? No payment is recorded; the student sees your reason.`,
  confirmQuestion: (amount: number, name: string) =>
    `Confirm ${formatNaira(amount)} from ${name}? It is recorded as a payment with a receipt, at once.`,
  yesConfirm: 'Yes, record it',
  cancel: 'Cancel',
  decidedBy: (who: string) => `by ${who}`,
  waitingBadge: (n: number) => `${n} waiting`,
  count: (n: number) => `${n} report${n === 1 ? '' : 's'}`,
} as const;

export const TRANSFER_REPORT_SCREEN_MESSAGES = {
  sendFailed: 'Could not send your report. Please try again.',
  listFailed: 'Could not load your reports. Please try again.',
  noReports: 'You have not reported any payment yet.',
  queueFailed: 'Could not load the reports. Please try again.',
  queueEmpty: 'No reports to confirm. Reports students send appear here.',
  noneOfStatus: 'No reports with this status.',
  confirmFailed: 'Could not confirm the payment. Please try again.',
  rejectFailed: 'Could not reject the report. Please try again.',
  slipFailed: 'Could not open the slip. Please try again.',
} as const;

export const TRANSFER_REPORT_SCREENS = {
  /** The student's: report a payment and see what became of earlier reports. */
  mine: {
    to: '/my-transfers',
    title: 'Report a Payment',
    label: 'Report a Payment',
    description: 'Tell the bursar about a bank transfer or teller',
  },
  /** The bursar's queue. */
  queue: {
    to: '/bursary/transfers',
    title: 'Payments to Confirm',
    label: 'Payments to Confirm',
    description: 'Transfers students reported',
  },
} as const;
