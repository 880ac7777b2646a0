import { z } from 'zod';
import type { Agrees, Check } from './response-check';
import { TERM_VALUES } from './constants';
import { PAYMENT_ALLOCATIONS } from './arrears';
import type { Bank, ReferenceReview } from './bank-references';
import { PAYMENT_METHODS, type LedgerEntry, type LedgerPage, type Statement } from './bursary';
import { DISCOUNT_BASES, DISCOUNT_KINDS, type Discount, type DiscountShare } from './discounts';
import type { CollectionSummary, DebtorsPage } from './fee-reports';
import type { FeeItem, FeeItemsBulkResult, FeeItemsCopyResult, TermFees } from './fees';
import type { ClassReportRow, PaymentContext, Receipt } from './payment-views';
import {
  PAYMENT_STATUSES,
  type ClassReportSummary,
  type InitiateResponse,
  type Payment,
  type PaymentProviderInfo,
  type SimulatorCheckout,
  type VerifyResponse,
} from './payments';
import {
  TRANSFER_REPORT_METHODS,
  TRANSFER_REPORT_STATUSES,
  type TransferConfirmation,
  type TransferReport,
  type TransferReportPage,
} from './transfer-reports';

/**
 * The payments and bursary answers (2xx) as zod schemas: what each route declares as its response,
 * what Fastify serialises through and the OpenAPI document publishes (each `id` a component).
 * Money is naira as a number (two decimals at most), exactly as the presenters send it.
 * The interfaces the web reads stay where they are; each schema is checked against its interface
 * at compile time (`Agrees`, response-check.ts), both ways, so the two cannot drift.
 */


const term = z.enum(TERM_VALUES);
const naira = z.number();
const feeStatus = z.enum(['paid', 'part_paid', 'unpaid']);
const paymentMethod = z.enum(PAYMENT_METHODS);
const receiptLink = z.object({ reference: z.string(), receipt_number: z.string() });

// ---------------------------------------------------------------- online payment

export const paymentInitiateResponseSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    data: z.object({ authorization_url: z.string(), access_code: z.string().nullable(), reference: z.string() }),
  })
  .meta({ id: 'PaymentInitiateResponse' });
type _Initiate = Check<Agrees<typeof paymentInitiateResponseSchema, InitiateResponse>>;

export const paymentVerifyResponseSchema = z
  .object({
    status: z.enum(['success', 'pending', 'failed', 'abandoned']),
    message: z.string(),
    reference: z.string().optional(),
  })
  .meta({ id: 'PaymentVerifyResponse' });
type _Verify = Check<Agrees<typeof paymentVerifyResponseSchema, VerifyResponse>>;

export const paymentSchema = z
  .object({
    id: z.number().int(),
    admission_number: z.string(),
    full_name: z.string(),
    current_class: z.string(),
    current_session: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    amount: naira,
    reference: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    created_at: z.string(),
    term: term.nullable(),
    currency: z.string(),
    paid_at: z.string().nullable(),
    paid_on: z.string().nullable().optional(),
  })
  .meta({ id: 'Payment' });
type _Payment = Check<Agrees<typeof paymentSchema, Payment>>;
export const paymentListSchema = z.array(paymentSchema).meta({ id: 'PaymentList' });

const termFeesSchema = z
  .object({ term, amount_due: naira, amount_paid: naira, balance: naira, status: feeStatus })
  .meta({ id: 'PaymentTermFees' });
type _TermFees = Check<Agrees<typeof termFeesSchema, TermFees>>;

export const classReportRowSchema = z
  .object({
    admission_number: z.string(),
    full_name: z.string(),
    current_class: z.string(),
    payment_status: z.enum(['successful', 'pending', 'unpaid']),
    last_payment_amount: naira.nullable(),
    last_payment_date: z.string().nullable(),
    amount_due: naira,
    amount_paid: naira,
    outstanding: naira,
    status: feeStatus,
    balance: naira,
    terms: z.array(termFeesSchema),
  })
  .meta({ id: 'PaymentClassReportRow' });
type _ClassReportRow = Check<Agrees<typeof classReportRowSchema, ClassReportRow>>;
export const classReportSchema = z.array(classReportRowSchema).meta({ id: 'PaymentClassReport' });

export const classReportSummarySchema = z
  .object({
    class: z.string(),
    session: z.string().nullable(),
    term: term.nullable(),
    students: z.number().int(),
    paid: z.number().int(),
    part_paid: z.number().int(),
    pending: z.number().int(),
    unpaid: z.number().int(),
    amount_due: naira,
    amount_paid: naira,
    outstanding: naira,
  })
  .meta({ id: 'PaymentClassReportSummary' });
type _ClassReportSummary = Check<Agrees<typeof classReportSummarySchema, ClassReportSummary>>;

export const feeItemSchema = z
  .object({
    id: z.number().int(),
    student_class: z.string(),
    session_id: z.number().int(),
    session: z.string(),
    term,
    name: z.string(),
    amount: naira,
    compulsory: z.boolean(),
    description: z.string(),
    due_on: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'FeeItem' });
type _FeeItem = Check<Agrees<typeof feeItemSchema, FeeItem>>;
export const feeItemListSchema = z.array(feeItemSchema).meta({ id: 'FeeItemList' });

export const feeItemsBulkResponseSchema = z
  .object({ created: z.number().int(), updated: z.number().int(), items: z.array(feeItemSchema) })
  .meta({ id: 'FeeItemsBulkResponse' });
type _Bulk = Check<Agrees<typeof feeItemsBulkResponseSchema, FeeItemsBulkResult & { items: FeeItem[] }>>;

export const feeItemsCopyResponseSchema = z
  .object({ copied: z.number().int(), skipped: z.number().int() })
  .meta({ id: 'FeeItemsCopyResponse' });
type _Copy = Check<Agrees<typeof feeItemsCopyResponseSchema, FeeItemsCopyResult>>;

const discountShareSchema = z.object({ label: z.string(), amount: naira }).meta({ id: 'DiscountShare' });
type _DiscountShare = Check<Agrees<typeof discountShareSchema, DiscountShare>>;

export const paymentContextSchema = z
  .object({
    sessions: z.array(z.object({ id: z.number().int(), name: z.string(), is_current: z.boolean() })),
    current_session: z.string().nullable(),
    student: z
      .object({
        admission_number: z.string(),
        full_name: z.string(),
        current_class: z.string(),
        email: z.string(),
        phone_number: z.string().nullable(),
        term: term.nullable(),
        amount_due: naira,
        amount_paid: naira,
        outstanding: naira,
        suggested_amount: naira,
        brought_forward: naira.optional(),
        brought_forward_from: z.string().nullable().optional(),
        status: feeStatus,
        terms: z.array(termFeesSchema),
        items: z.array(feeItemSchema),
        discounts: z.array(discountShareSchema),
      })
      .nullable(),
  })
  .meta({ id: 'PaymentContext' });
type _Context = Check<Agrees<typeof paymentContextSchema, PaymentContext>>;

export const paymentReceiptSchema = z
  .object({
    reference: z.string(),
    admission_number: z.string(),
    full_name: z.string(),
    current_class: z.string(),
    current_session: z.string(),
    term: term.nullable(),
    email: z.string(),
    phone_number: z.string().nullable(),
    amount: naira,
    currency: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    paid_at: z.string(),
    provider: z.string(),
    receipt_number: z.string().nullable().optional(),
    method: paymentMethod.optional(),
    bank: z.string().optional(),
    bank_reference: z.string().optional(),
    paid_on: z.string().nullable().optional(),
    discounts: z.array(discountShareSchema).optional(),
    balance_after: naira.nullable().optional(),
    school: z.object({
      name: z.string(),
      address: z.string(),
      phone: z.string(),
      email: z.string(),
      motto: z.string(),
      time_zone: z.string().optional(),
    }),
  })
  .meta({ id: 'PaymentReceipt' });
type _Receipt = Check<Agrees<typeof paymentReceiptSchema, Receipt>>;

export const paymentProviderInfoSchema = z
  .object({
    online_payment: z.boolean(),
    provider: z.enum(['paystack', 'simulator']).nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'PaymentProviderInfo' });
type _Provider = Check<Agrees<typeof paymentProviderInfoSchema, PaymentProviderInfo>>;

export const simulatorCheckoutSchema = z
  .object({
    merchant: z.string(),
    amount: naira,
    email: z.string(),
    reference: z.string(),
    status: z.enum(['pending', 'success', 'failed', 'abandoned']),
    return_url: z.string(),
  })
  .meta({ id: 'PaymentSimulatorCheckout' });
type _Simulator = Check<Agrees<typeof simulatorCheckoutSchema, SimulatorCheckout>>;

/**
 * What a Paystack event did: the payment's verified status once credited (`success`, or `failed`,
 * `abandoned`, `pending` when the provider's own record says so), `replay` for an event already
 * handled, `ignored` for an event that is not a `charge.success`, `unknown_reference` for a payment
 * not ours, `other_provider` for a payment taken by another provider.
 */
export const PAYSTACK_WEBHOOK_OUTCOMES = [
  'success',
  'failed',
  'abandoned',
  'pending',
  'replay',
  'ignored',
  'unknown_reference',
  'other_provider',
] as const;
export type PaystackWebhookOutcome = (typeof PAYSTACK_WEBHOOK_OUTCOMES)[number];

/** What the portal answers Paystack's webhook (Paystack needs only the 200; a 5xx makes it deliver again). */
export const paystackWebhookResponseSchema = z
  .object({ status: z.literal('ok'), outcome: z.enum(PAYSTACK_WEBHOOK_OUTCOMES) })
  .meta({ id: 'PaystackWebhookResponse' });

// ---------------------------------------------------------------- the bursar's office

export const ledgerEntrySchema = z
  .object({
    reference: z.string(),
    receipt_number: z.string(),
    kind: z.enum(['payment', 'reversal']),
    admission_number: z.string(),
    full_name: z.string(),
    student_class: z.string(),
    session: z.string(),
    term: term.nullable(),
    amount: naira,
    method: paymentMethod,
    bank: z.string(),
    bank_reference: z.string(),
    paid_on: z.string(),
    note: z.string(),
    has_scan: z.boolean(),
    reverses: receiptLink.nullable(),
    reason: z.string(),
    reversed_by: z.string().nullable(),
    replaces: receiptLink.nullable(),
    recorded_by: z.string().nullable(),
    recorded_at: z.string(),
    allocation: z.enum(PAYMENT_ALLOCATIONS),
  })
  .meta({ id: 'LedgerEntry' });
type _LedgerEntry = Check<Agrees<typeof ledgerEntrySchema, LedgerEntry>>;

export const ledgerPageSchema = z
  .object({
    entries: z.array(ledgerEntrySchema),
    page: z.number().int(),
    pages: z.number().int(),
    total: z.number().int(),
    total_amount: naira,
  })
  .meta({ id: 'LedgerPage' });
type _LedgerPage = Check<Agrees<typeof ledgerPageSchema, LedgerPage>>;

export const statementSchema = z
  .object({
    admission_number: z.string(),
    full_name: z.string(),
    student_class: z.string(),
    session_id: z.number().int(),
    session: z.string(),
    lines: z.array(
      z.object({
        date: z.string(),
        kind: z.enum(['brought_forward', 'charge', 'discount', 'payment', 'reversal']),
        description: z.string(),
        term: term.nullable(),
        debit: naira,
        credit: naira,
        balance: naira,
        receipt_number: z.string().nullable(),
        upcoming: z.boolean(),
      }),
    ),
    charged: naira,
    discounts: naira,
    paid: naira,
    balance: naira,
    upcoming: naira,
    as_of: z.string(),
    brought_forward: naira,
    brought_forward_from: z.string().nullable(),
    arrears: z.object({ charged: naira, paid: naira, outstanding: naira }),
    terms: z.array(z.object({ term, charged: naira, paid: naira, outstanding: naira })),
  })
  .meta({ id: 'Statement' });
type _Statement = Check<Agrees<typeof statementSchema, Statement>>;

export const discountResponseSchema = z
  .object({
    id: z.number().int(),
    admission_number: z.string(),
    full_name: z.string(),
    student_class: z.string(),
    session_id: z.number().int(),
    session: z.string(),
    term: term.nullable(),
    kind: z.enum(DISCOUNT_KINDS),
    label: z.string(),
    basis: z.enum(DISCOUNT_BASES),
    percent: z.number().nullable(),
    amount: naira.nullable(),
    items: z.array(z.string()),
    reason: z.string(),
    value: naira,
    given_by: z.string().nullable(),
    given_at: z.string(),
    revoked_at: z.string().nullable(),
    revoked_by: z.string().nullable(),
    revoke_reason: z.string(),
  })
  .meta({ id: 'Discount' });
type _Discount = Check<Agrees<typeof discountResponseSchema, Discount>>;
export const discountListSchema = z.array(discountResponseSchema).meta({ id: 'DiscountList' });

const debtorSchema = z
  .object({
    admission_number: z.string(),
    full_name: z.string(),
    student_class: z.string(),
    due: naira,
    discount: naira,
    paid: naira,
    balance: naira,
    status: feeStatus,
    days_overdue: z.number().int(),
    last_paid_on: z.string().nullable(),
    brought_forward: naira,
  })
  .meta({ id: 'Debtor' });

export const debtorsPageSchema = z
  .object({
    session_id: z.number().int(),
    session: z.string(),
    term: term.nullable(),
    as_of: z.string(),
    term_begins: z.string().nullable(),
    debtors: z.array(debtorSchema),
    page: z.number().int(),
    pages: z.number().int(),
    total: z.number().int(),
    total_balance: naira,
  })
  .meta({ id: 'DebtorsPage' });
type _DebtorsPage = Check<Agrees<typeof debtorsPageSchema, DebtorsPage>>;

const collectionRow = { expected: naira, collected: naira, outstanding: naira, upcoming: naira };
export const collectionSummarySchema = z
  .object({
    session_id: z.number().int(),
    session: z.string(),
    term: term.nullable(),
    as_of: z.string(),
    totals: z.object({
      ...collectionRow,
      discounts: naira,
      students: z.number().int(),
      credit: naira,
      brought_forward: naira,
    }),
    by_class: z.array(z.object({ ...collectionRow, student_class: z.string(), students: z.number().int() })),
    by_item: z.array(z.object({ ...collectionRow, name: z.string() })),
    by_day: z.array(z.object({ date: z.string(), count: z.number().int(), amount: naira })),
    by_method: z.array(z.object({ method: paymentMethod, count: z.number().int(), amount: naira })),
  })
  .meta({ id: 'CollectionSummary' });
type _Collections = Check<Agrees<typeof collectionSummarySchema, CollectionSummary>>;

export const transferReportResponseSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(TRANSFER_REPORT_STATUSES),
    admission_number: z.string(),
    full_name: z.string(),
    student_class: z.string(),
    session_id: z.number().int(),
    session: z.string(),
    term: term.nullable(),
    amount: naira,
    method: z.enum(TRANSFER_REPORT_METHODS),
    bank: z.string(),
    bank_reference: z.string(),
    paid_on: z.string(),
    note: z.string(),
    reported_at: z.string(),
    decided_at: z.string().nullable(),
    decided_by: z.string().nullable(),
    reason: z.string(),
    payment_reference: z.string().nullable(),
    receipt_number: z.string().nullable(),
  })
  .meta({ id: 'TransferReport' });
type _TransferReport = Check<Agrees<typeof transferReportResponseSchema, TransferReport>>;
export const transferReportListSchema = z.array(transferReportResponseSchema).meta({ id: 'TransferReportList' });

export const transferReportPageSchema = z
  .object({
    reports: z.array(transferReportResponseSchema),
    page: z.number().int(),
    pages: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'TransferReportPage' });
type _TransferReportPage = Check<Agrees<typeof transferReportPageSchema, TransferReportPage>>;

export const transferConfirmationSchema = z
  .object({ report: transferReportResponseSchema, payment: ledgerEntrySchema })
  .meta({ id: 'TransferConfirmation' });
type _TransferConfirmation = Check<Agrees<typeof transferConfirmationSchema, TransferConfirmation>>;

export const bankSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    aliases: z.array(z.string()).readonly(),
    kind: z.enum(['commercial', 'merchant', 'non_interest', 'microfinance', 'payment_service', 'added']),
  })
  .meta({ id: 'Bank' });
type _Bank = Check<Agrees<typeof bankSchema, Bank>>;
export const bankListSchema = z.array(bankSchema).meta({ id: 'BankList' });

export const referenceReviewSchema = z
  .object({
    entity: z.enum(['payment', 'transfer_report']),
    receipt_number: z.string().nullable(),
    report_id: z.number().int().nullable(),
    holder_receipt_number: z.string().nullable(),
    holder_report_id: z.number().int().nullable(),
    bank: z.string(),
    bank_reference: z.string(),
    holder_bank: z.string(),
    holder_bank_reference: z.string(),
    found_at: z.string(),
  })
  .meta({ id: 'BankReferenceReview' });
type _ReferenceReview = Check<Agrees<typeof referenceReviewSchema, ReferenceReview>>;
export const referenceReviewListSchema = z.array(referenceReviewSchema).meta({ id: 'BankReferenceReviewList' });
