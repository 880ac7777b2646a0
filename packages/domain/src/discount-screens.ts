/**
 * Words of the discounts screen and of the places that show discounts (statement,
 * receipt, payment form) that the server never says. The server's messages are in discounts.ts.
 */
import { formatNaira } from './money';

export const DISCOUNT_SCREEN_LABELS = {
  admissionNumber: 'Admission number',
  session: 'Session',
  open: 'Open',
  kind: 'Kind',
  covers: 'For',
  wholeSession: 'Whole session (each term)',
  basis: 'Discount by',
  percent: 'Percentage',
  fixed: 'Fixed amount',
  percentField: 'Percentage (%)',
  percentHint: 'More than 0, at most 100 (e.g. 10 or 12.5)',
  amountField: 'Amount off each term (₦)',
  items: 'Fee items',
  itemsHint: 'None ticked: every compulsory item.',
  noItemsSet: 'No compulsory fee items are set for this class in the session yet.',
  reason: 'Reason',
  give: 'Give discount',
  revoke: 'Revoke',
  revokeReason: 'Reason for revoking',
  confirmRevoke: 'Revoke discount',
  cancel: 'Cancel',
  revokeQuestion: (label: string, name: string) =>
    `Revoke "${label}" for ${name}? The student owes the full fees again; the discount stays in the history.`,
  active: 'In force',
  revoked: 'Revoked',
  takesNow: 'Takes off now',
  givenBy: (who: string | null, when: string) => `Given ${when}${who ? ` by ${who}` : ''}`,
  revokedBy: (who: string | null, when: string) => `Revoked ${when}${who ? ` by ${who}` : ''}`,
  theirDiscounts: 'Discounts this session',
  giveTitle: 'Give a discount',
  // The statement, the receipt and the payment form.
  discounts: 'Discounts',
  receiptDiscount: 'Discount',
  balanceAfter: 'Balance after this payment',
  discountLine: (label: string, amount: number) => `${label}: ${formatNaira(-amount)}`,
} as const;

export const DISCOUNT_SCREEN_MESSAGES = {
  chooseStudent: 'Enter an admission number and choose a session.',
  listFailed: 'Could not load the discounts. Please try again.',
  giveFailed: 'Could not give the discount. Please try again.',
  revokeFailed: 'Could not revoke the discount. Please try again.',
  none: 'No discounts for this student in this session.',
  correctErrors: 'Please correct the errors below.',
} as const;
