/**
 * The bursar's office, second part: a student (later a parent) reports a bank transfer
 * or teller payment with a photo of the slip; it waits as "to confirm" until the bursar confirms it
 * (which records an offline payment of method `bank_transfer` or `bank_teller`, with the slip as its
 * scan and a receipt from the one sequence) or rejects it with a reason the student sees.
 *
 * API (all under /api; "bursar" = staff with the capability, or the admin):
 *   POST /bursary/transfer-reports/                    student  TransferReportInput → TransferReport (201)
 *   GET  /bursary/transfer-reports/mine/               student  → TransferReport[] (newest first)
 *   GET  /bursary/transfer-reports/?status&page        bursar   → TransferReportPage (oldest "to confirm" first)
 *   POST /bursary/transfer-reports/{id}/confirm/       bursar   {} → { report: TransferReport; payment: LedgerEntry }
 *   POST /bursary/transfer-reports/{id}/reject/        bursar   { reason } → TransferReport
 *   GET  /bursary/transfer-reports/{id}/scan/          bursar, or the student who reported it → the slip
 * Only "to confirm" reports can be decided (409 otherwise, two bursars racing get one 200 and one 409).
 * The bank reference rule of offline payments holds: a report whose reference is already recorded is
 * refused at once, and so is a second report of the same reference still waiting; confirming re-checks it.
 */
import { z } from 'zod';
import { valuesOf } from './choices';
import type { Term } from './constants';
import { TERM_VALUES } from './constants';
import { requiredText, textField } from './text';
import { amountSchema } from './payments';
import { isoDateField } from './report-card-schemas';
import { sessionIdField } from './result-schemas';
import { BURSARY_MESSAGES, checkSlip, type LedgerEntry } from './bursary';
import { referenceKey } from './bank-references';

export const TRANSFER_REPORT_STATUS_LABELS = { to_confirm: 'To confirm', confirmed: 'Confirmed', rejected: 'Rejected' };
export type TransferReportStatus = keyof typeof TRANSFER_REPORT_STATUS_LABELS;
export const TRANSFER_REPORT_STATUSES = valuesOf(TRANSFER_REPORT_STATUS_LABELS);
/** How the money reached the bank (the recorded payment's method once confirmed). */
export const TRANSFER_REPORT_METHODS = ['bank_transfer', 'bank_teller'] as const;
export type TransferReportMethod = (typeof TRANSFER_REPORT_METHODS)[number];

export const TRANSFER_REPORT_MESSAGES = {
  studentsOnly: 'Only a student can report a payment for themselves.',
  scanRequired: 'Add a photo of the teller or transfer slip.',
  reported: 'Thank you. The bursar will confirm your payment; you will see it here.',
  referenceWaiting: 'This bank reference was already reported and is waiting for the bursar.',
  notWaiting: (status: string) => `This report was already ${status.toLowerCase()}.`,
  reportNotFound: 'Transfer report not found.',
  rejectReasonRequired: 'Give the reason, so the student knows what to do.',
  confirmed: (receipt: string) => `Payment confirmed: receipt ${receipt}.`,
  rejected: 'Report rejected; the student sees the reason.',
  /** The recorded payment's note once confirmed (the date is the day the student reported it). */
  reportedNote: (date: string) => `Reported by the student on ${date}.`,
  tooManyWaiting: (n: number) =>
    `You already have ${n} payments waiting for the bursar. Wait until they are confirmed before reporting more.`,
} as const;
/** A student's reports waiting at once, at most (each carries a slip of up to 2 MB). */
export const TRANSFER_REPORT_MAX_WAITING = 10;

export const transferReportSchema = z
  .object({
    session_id: sessionIdField,
    /** The term it is for; null = general (the session's balance). */
    term: z.enum(TERM_VALUES).nullable(),
    amount: amountSchema,
    method: z.enum(TRANSFER_REPORT_METHODS, { error: BURSARY_MESSAGES.methodRequired }),
    bank: requiredText('Bank', BURSARY_MESSAGES.bankRequired).max(80),
    bank_reference: requiredText('Bank reference', BURSARY_MESSAGES.referenceRequired).max(60),
    paid_on: isoDateField,
    note: textField('Note').trim().max(300).default(''),
    /** Data URL of the slip (PNG, JPEG or PDF, at most SCAN_MAX_BYTES decoded): required. */
    scan: z
      .string({ error: TRANSFER_REPORT_MESSAGES.scanRequired })
      .min(1, TRANSFER_REPORT_MESSAGES.scanRequired)
      .max(3_000_000, BURSARY_MESSAGES.scanTooLarge),
  })
  .superRefine((v, ctx) => {
    if (v.bank_reference && !referenceKey(v.bank_reference))
      ctx.addIssue({ code: 'custom', path: ['bank_reference'], message: BURSARY_MESSAGES.referenceRequired });
    // An empty scan already says scanRequired (one message a field): checkSlip passes it over.
    checkSlip(v, ctx);
  });
export type TransferReportInput = z.input<typeof transferReportSchema>;
export type TransferReportData = z.output<typeof transferReportSchema>;

export const transferRejectSchema = z.object({
  reason: requiredText('Reason', TRANSFER_REPORT_MESSAGES.rejectReasonRequired).max(300),
});

export const transferReportQuerySchema = z.object({
  status: z.enum(TRANSFER_REPORT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const TRANSFER_REPORT_PAGE_SIZE = 50;

export interface TransferReport {
  id: number;
  status: TransferReportStatus;
  admission_number: string;
  full_name: string;
  student_class: string;
  session_id: number;
  session: string;
  term: Term | null;
  /** Naira. */
  amount: number;
  method: TransferReportMethod;
  bank: string;
  bank_reference: string;
  paid_on: string;
  note: string;
  reported_at: string;
  /** Set once decided. */
  decided_at: string | null;
  decided_by: string | null;
  /** Why it was rejected (shown to the student). */
  reason: string;
  /** Once confirmed: the recorded payment's reference and receipt number. */
  payment_reference: string | null;
  receipt_number: string | null;
}
export interface TransferReportPage {
  reports: TransferReport[];
  page: number;
  pages: number;
  total: number;
}
export interface TransferConfirmation {
  report: TransferReport;
  payment: LedgerEntry;
}

// Kept beside the screens' words (no zod): the app's route table imports them.
export { TRANSFER_REPORT_SCREENS } from './transfer-report-screens';
