/**
 * One rule for bank references and one list of banks (decision record 014), used by
 * offline payments, transfer reports and every search by reference, on the server and the client.
 *
 * A reference is compared by its key: Unicode NFKC (full-width and compatibility forms fold to
 * plain ones), format and other default-ignorable characters removed (zero-width spaces, joiners,
 * soft hyphens, BOM), white space, dashes, underscores, slashes and dots dropped, upper case. What
 * the bursar or the student typed is stored as typed, for display; the key decides uniqueness.
 * A reference holding a letter or digit of another script than Latin (a Cyrillic `Т` beside Latin
 * ones looks the same on screen) is refused: Nigerian bank references are Latin letters and digits,
 * and refusing is simpler and safer than folding look-alikes (UTS #39 skeletons).
 *
 * A bank is one of a list (the CBN's licensed commercial, merchant and non-interest banks, the
 * common microfinance and payment service banks) with its code, plus those the admin adds; a name
 * is matched by its key (case, punctuation and words like "Plc", "Bank", "Nigeria" aside) against
 * each bank's name and aliases ("GTB", "GTBank", "Guaranty Trust Bank Plc" are all 058). The
 * uniqueness key of a payment is the bank's code and the reference's key.
 */
import { z } from 'zod';
import { requiredText, textField } from './text';

export const BANK_REFERENCE_MESSAGES = {
  otherScript:
    'The bank reference has a letter or digit from another alphabet (such as a Cyrillic or Greek look-alike). Type it again with plain letters and digits.',
  bankUnknown: 'Choose the bank from the list (the admin can add a bank that is missing).',
  bankNameRequired: 'Give the bank’s name.',
  bankCodeInvalid: 'The bank code is 3 to 6 digits (the CBN/NIBSS code).',
  bankCodeTaken: (name: string) => `This code is already ${name}’s.`,
  bankNameTaken: (name: string) => `This name is already ${name}.`,
  bankAdded: (name: string) => `${name} added to the list of banks.`,
  /** How the ledger and the statement name the reversed payment a new one replaces. */
  replaces: (receipt: string) => `replaces ${receipt}`,
} as const;

// Default-ignorable code points render as nothing (ZWSP, ZWJ/ZWNJ, word joiner, BOM, soft hyphen,
// variation selectors, Hangul fillers...); Cf adds the other format characters.
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
// Spaces, every dash (hyphen, en and em dashes, minus sign after NFKC...), and _ / . as separators.
const SEPARATORS = /[\s\p{Pd}\u2212_/.]/gu;
const OTHER_SCRIPT = /(?![\p{Script=Latin}])\p{L}|(?![0-9])\p{N}/u;

/** The comparison key of a bank reference (see the module comment). Idempotent. */
export function referenceKey(reference: string): string {
  return reference.normalize('NFKC').replace(IGNORABLE, '').replace(SEPARATORS, '').toUpperCase().normalize('NFKC');
}

/** Why a typed reference is refused (a letter or digit of another script), or null. */
export function referenceProblem(reference: string): string | null {
  return OTHER_SCRIPT.test(reference.normalize('NFKC').replace(IGNORABLE, '')) ? BANK_REFERENCE_MESSAGES.otherScript : null;
}

/** The uniqueness key of a bank reference at a bank (its code; '' for none, as for cash). */
export function bankReferenceKey(bankCode: string, reference: string): string {
  return `${bankCode}|${referenceKey(reference)}`;
}

// ---------- banks ----------

export interface Bank {
  /** The CBN/NIBSS institution code (3 digits for banks, longer for microfinance and PSBs). */
  code: string;
  name: string;
  /** Other names people write for it (matched by their key, like the name). */
  aliases: readonly string[];
  /** 'added': by the admin (GET /api/bursary/banks/ lists the domain's and the added ones). */
  kind: 'commercial' | 'merchant' | 'non_interest' | 'microfinance' | 'payment_service' | 'added';
}

/**
 * API: GET /bursary/banks/ (any signed-in user: the payment and transfer forms offer it) → Bank[];
 * POST /bursary/banks/ admin BankInput → Bank (201); 409 when its code or a name is already a bank's.
 */
export const bankInputSchema = z.object({
  code: z
    .string({ error: BANK_REFERENCE_MESSAGES.bankCodeInvalid })
    .trim()
    .regex(/^\d{3,6}$/, BANK_REFERENCE_MESSAGES.bankCodeInvalid),
  name: requiredText('Name', BANK_REFERENCE_MESSAGES.bankNameRequired).max(80),
  aliases: z.array(textField('Alias').trim().min(1).max(80)).max(10).default([]),
});
export type BankInput = z.input<typeof bankInputSchema>;

const FILLER = new Set(['PLC', 'LIMITED', 'LTD', 'NIGERIA', 'NIG', 'NG', 'OF', 'THE', 'BANK', 'MFB', 'MICROFINANCE', 'PSB', 'AND']);

/** The key a bank's name is matched by: case, punctuation, invisible characters and filler words aside. */
export function bankNameKey(name: string): string {
  const words = name
    .normalize('NFKC')
    .replace(IGNORABLE, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const kept = words.filter((w) => !FILLER.has(w));
  return (kept.length > 0 ? kept : words).join('');
}

/**
 * The banks of the list. Codes are the institution codes of the CBN/NIBSS bank list that the
 * payment providers publish; the admin adds any bank missing here (kept in the `banks` table).
 */
export const NIGERIAN_BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank', aliases: ['Access', 'Access Bank Plc', 'Diamond Bank', 'Access Diamond'], kind: 'commercial' },
  { code: '023', name: 'Citibank Nigeria', aliases: ['Citibank', 'Citi'], kind: 'commercial' },
  { code: '050', name: 'Ecobank Nigeria', aliases: ['Ecobank', 'Eco Bank'], kind: 'commercial' },
  { code: '070', name: 'Fidelity Bank', aliases: ['Fidelity'], kind: 'commercial' },
  { code: '011', name: 'First Bank of Nigeria', aliases: ['First Bank', 'FirstBank', 'FBN', 'First Bank Plc'], kind: 'commercial' },
  { code: '214', name: 'First City Monument Bank', aliases: ['FCMB'], kind: 'commercial' },
  { code: '00103', name: 'Globus Bank', aliases: ['Globus'], kind: 'commercial' },
  {
    code: '058',
    name: 'Guaranty Trust Bank',
    aliases: ['GTBank', 'GTB', 'GT Bank', 'GTCO', 'Guaranty Trust', 'Guaranty Trust Bank Plc', 'Guaranty Trust Holding Company'],
    kind: 'commercial',
  },
  { code: '082', name: 'Keystone Bank', aliases: ['Keystone'], kind: 'commercial' },
  { code: '107', name: 'Optimus Bank', aliases: ['Optimus'], kind: 'commercial' },
  { code: '104', name: 'Parallex Bank', aliases: ['Parallex'], kind: 'commercial' },
  { code: '076', name: 'Polaris Bank', aliases: ['Polaris', 'Skye Bank'], kind: 'commercial' },
  { code: '105', name: 'PremiumTrust Bank', aliases: ['Premium Trust', 'PremiumTrust'], kind: 'commercial' },
  { code: '101', name: 'Providus Bank', aliases: ['Providus'], kind: 'commercial' },
  { code: '106', name: 'Signature Bank', aliases: [], kind: 'commercial' },
  { code: '221', name: 'Stanbic IBTC Bank', aliases: ['Stanbic', 'Stanbic IBTC', 'IBTC'], kind: 'commercial' },
  { code: '068', name: 'Standard Chartered Bank', aliases: ['Standard Chartered', 'StanChart', 'SCB'], kind: 'commercial' },
  { code: '232', name: 'Sterling Bank', aliases: ['Sterling'], kind: 'commercial' },
  { code: '100', name: 'SunTrust Bank', aliases: ['SunTrust', 'Sun Trust'], kind: 'commercial' },
  { code: '102', name: 'Titan Trust Bank', aliases: ['Titan Trust', 'Titan', 'TTB'], kind: 'commercial' },
  { code: '032', name: 'Union Bank of Nigeria', aliases: ['Union Bank', 'Union', 'UBN'], kind: 'commercial' },
  { code: '033', name: 'United Bank for Africa', aliases: ['UBA', 'United Bank for Africa Plc'], kind: 'commercial' },
  { code: '215', name: 'Unity Bank', aliases: ['Unity'], kind: 'commercial' },
  { code: '035', name: 'Wema Bank', aliases: ['Wema', 'ALAT', 'ALAT by Wema'], kind: 'commercial' },
  { code: '057', name: 'Zenith Bank', aliases: ['Zenith', 'Zenith Bank Plc'], kind: 'commercial' },
  { code: '301', name: 'Jaiz Bank', aliases: ['Jaiz'], kind: 'non_interest' },
  { code: '303', name: 'Lotus Bank', aliases: ['Lotus'], kind: 'non_interest' },
  { code: '302', name: 'TAJBank', aliases: ['TAJ Bank', 'TAJ'], kind: 'non_interest' },
  { code: '559', name: 'Coronation Merchant Bank', aliases: ['Coronation'], kind: 'merchant' },
  { code: '060002', name: 'FBNQuest Merchant Bank', aliases: ['FBNQuest', 'FBN Quest'], kind: 'merchant' },
  { code: '501', name: 'FSDH Merchant Bank', aliases: ['FSDH'], kind: 'merchant' },
  { code: '562', name: 'Greenwich Merchant Bank', aliases: ['Greenwich'], kind: 'merchant' },
  { code: '561', name: 'Nova Merchant Bank', aliases: ['Nova', 'Nova Bank'], kind: 'merchant' },
  { code: '502', name: 'Rand Merchant Bank', aliases: ['RMB', 'Rand Merchant'], kind: 'merchant' },
  { code: '50515', name: 'Moniepoint Microfinance Bank', aliases: ['Moniepoint', 'Moniepoint MFB'], kind: 'microfinance' },
  { code: '50211', name: 'Kuda Microfinance Bank', aliases: ['Kuda', 'Kuda Bank', 'Kuda MFB'], kind: 'microfinance' },
  { code: '566', name: 'VFD Microfinance Bank', aliases: ['VFD', 'V Bank', 'VBank'], kind: 'microfinance' },
  { code: '51318', name: 'FairMoney Microfinance Bank', aliases: ['FairMoney', 'Fair Money'], kind: 'microfinance' },
  { code: '565', name: 'Carbon', aliases: ['One Finance', 'Carbon MFB'], kind: 'microfinance' },
  { code: '125', name: 'Rubies Microfinance Bank', aliases: ['Rubies', 'Rubies MFB'], kind: 'microfinance' },
  { code: '51310', name: 'Sparkle Microfinance Bank', aliases: ['Sparkle'], kind: 'microfinance' },
  { code: '50549', name: 'LAPO Microfinance Bank', aliases: ['LAPO', 'LAPO MFB'], kind: 'microfinance' },
  { code: '999992', name: 'OPay', aliases: ['OPay Digital Services', 'Paycom', 'O Pay'], kind: 'microfinance' },
  { code: '999991', name: 'PalmPay', aliases: ['Palm Pay'], kind: 'microfinance' },
  { code: '120001', name: '9 Payment Service Bank', aliases: ['9PSB', '9mobile PSB'], kind: 'payment_service' },
  { code: '120002', name: 'HopePSB', aliases: ['Hope PSB', 'Hope Payment Service Bank'], kind: 'payment_service' },
  { code: '120003', name: 'MoMo Payment Service Bank', aliases: ['MoMo PSB', 'MTN MoMo', 'MoMo'], kind: 'payment_service' },
  {
    code: '120004',
    name: 'SmartCash Payment Service Bank',
    aliases: ['SmartCash', 'Airtel SmartCash', 'SmartCash PSB'],
    kind: 'payment_service',
  },
];

/**
 * A stored payment or transfer report that shared its bank reference key with an older one when
 * migration 0020 computed the keys again: kept, listed for the bursar to review
 * (GET /bursary/reference-reviews/, bursar → ReferenceReview[]).
 */
export interface ReferenceReview {
  entity: 'payment' | 'transfer_report';
  /** The later row (it no longer holds the key) and the older one holding it. */
  receipt_number: string | null;
  report_id: number | null;
  holder_receipt_number: string | null;
  holder_report_id: number | null;
  bank: string;
  bank_reference: string;
  holder_bank: string;
  holder_bank_reference: string;
  found_at: string;
}

/** The bank a typed name means (by its name or an alias), among `banks`; undefined when none. */
export function findBank(name: string, banks: readonly Bank[] = NIGERIAN_BANKS): Bank | undefined {
  const key = bankNameKey(name);
  if (!key) return undefined;
  return banks.find((b) => bankNameKey(b.name) === key || b.aliases.some((a) => bankNameKey(a) === key));
}

/** The key part of an old free-text bank the list does not know (upgraded rows only): never a code. */
export function unlistedBankCode(name: string): string {
  return `?${bankNameKey(name)}`;
}
