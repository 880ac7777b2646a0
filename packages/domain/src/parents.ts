import { z } from 'zod';
import { optionsOf, valuesOf } from './choices';
import { ADMISSION_NUMBER_MAX } from './constants';
import type { Me } from './auth';
import { AUTH_MESSAGES } from './auth-constants';
import { foldSignInText } from './sign-in-id';
import { textField } from './text';

/**
 * Parents and family access (issue 33, docs/decisions/035): one account per parent, identified by a
 * Nigerian mobile number in E.164 ("+2348031234567"), linked to any number of students.
 */

export const PARENT_RELATIONSHIP_LABELS = { father: 'Father', mother: 'Mother', guardian: 'Guardian' };
export type ParentRelationship = keyof typeof PARENT_RELATIONSHIP_LABELS;
export const PARENT_RELATIONSHIPS = valuesOf(PARENT_RELATIONSHIP_LABELS);
export const PARENT_RELATIONSHIP_OPTIONS = optionsOf(PARENT_RELATIONSHIP_LABELS);

/** Where a link came from: the student form, a CSV import, or the admin's own hand. */
export const PARENT_LINK_SOURCE_LABELS = { student_form: 'Student form', import: 'Import', admin: 'Admin' };
export type ParentLinkSource = keyof typeof PARENT_LINK_SOURCE_LABELS;
export const PARENT_LINK_SOURCES = valuesOf(PARENT_LINK_SOURCE_LABELS);

/** How the admin settles one student of a conflict: link them to the phone's parent, or leave them unlinked. */
export const PARENT_CONFLICT_ACTION_LABELS = { link: 'Link to this parent', dismiss: 'Not this parent' };
export type ParentConflictAction = keyof typeof PARENT_CONFLICT_ACTION_LABELS;
export const PARENT_CONFLICT_ACTIONS = valuesOf(PARENT_CONFLICT_ACTION_LABELS);

export const PARENT_NAME_MAX = 150;
export const PARENT_EMAIL_MAX = 254;
/** A typed phone longer than this is not a phone number (refused before any folding). */
export const PARENT_PHONE_TYPED_MAX = 40;

export const PARENT_MESSAGES = {
  nameRequired: "Parent's name is required",
  nameTooLong: `Parent's name must be at most ${PARENT_NAME_MAX} characters`,
  phoneRequired: 'Phone number is required',
  invalidPhone: 'Enter a Nigerian mobile number, such as 0803 123 4567 or +234 803 123 4567',
  invalidEmail: 'Invalid email format',
  relationshipInvalid: 'Relationship must be father, mother or guardian',
  admissionNumberRequired: 'Admission number is required',
  actionInvalid: 'Action must be link or dismiss',
  phoneTaken: 'A parent with this phone number already exists.',
  emailTaken: 'A user with this email already exists.',
  notFound: 'Parent not found.',
  studentNotFound: (admissionNumber: string) => `No student with admission number ${admissionNumber}.`,
  linkNotFound: 'That student is not linked to this parent.',
  alreadyLinked: 'That student is already linked to this parent.',
  conflictNotFound: 'There is no open conflict for that phone number and student.',
  notYourChild: 'That student is not one of your children.',
  childRequired: "Name the child: give the child's admission number.",
  armUnknown: (arm: string) => `No class named ${arm}.`,
  noneToInvite: 'Every parent here has been invited already. Tick "again" to give them new one-time passwords.',
  signInIdRequired: 'Phone number or email is required',
  invalidSignInId: 'Enter your phone number (such as 0803 123 4567) or your email',
  invited: (n: number) => `${n} parent${n === 1 ? '' : 's'} invited. The one-time passwords are shown once: print the slips now.`,
} as const;

/** The notice event kind an invitation writes (notices: issue 33). */
export const PARENT_INVITED_EVENT = 'parent_invited';

// Invisible characters copied with a number (zero-width spaces and joiners, BOM, bidi marks, soft hyphen...).
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/** Spaces of every kind, dashes and minus signs, dots and brackets: separators, never digits. */
const SEPARATORS = /[\s\p{Z}\p{Pd}\u2212.()[\]/]/gu;

/**
 * The one reading of a Nigerian mobile number: `0803 123 4567`, `803-123-4567`, `+234 803 123 4567`,
 * `234.803.123.4567`, `+234 (0) 803…`, `00234 803…`, with spaces, dashes, dots, brackets, invisible
 * characters and full-width or other compatibility digits (NFKC) → `"+2348031234567"`. The national
 * number is ten digits starting 7, 8 or 9 (the mobile ranges). Anything else is null (no guess):
 * letters, other countries, too few or too many digits, digits of other scripts.
 */
export function normaliseNigerianPhone(raw: string): string | null {
  if (typeof raw !== 'string' || raw.length > PARENT_PHONE_TYPED_MAX * 4) return null;
  const folded = raw.normalize('NFKC').replace(INVISIBLE, '').trim();
  if (folded.length > PARENT_PHONE_TYPED_MAX) return null;
  let s = folded.replace(SEPARATORS, '');
  if (s.startsWith('+')) s = s.slice(1);
  else if (s.startsWith('00')) s = s.slice(2);
  else if (!s.startsWith('234') || s.length <= 11) {
    // National forms: 0803…, 803…
    if (s.startsWith('0')) s = s.slice(1);
    s = `234${s}`;
  }
  if (!/^[0-9]+$/.test(s) || !s.startsWith('234')) return null;
  let national = s.slice(3);
  // "+234 (0) 803…": the trunk zero written after the country code.
  if (national.length === 11 && national.startsWith('0')) national = national.slice(1);
  return /^[789][01]\d{8}$/.test(national) ? `+234${national}` : null;
}

/** A phone for display: "+234 803 123 4567". */
export function formatNigerianPhone(e164: string): string {
  const m = /^\+234(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `+234 ${m[1]} ${m[2]} ${m[3]}` : e164;
}

const TITLES = new Set([
  'mr',
  'mrs',
  'miss',
  'ms',
  'dr',
  'prof',
  'chief',
  'alhaji',
  'alhaja',
  'hajia',
  'engr',
  'rev',
  'pastor',
  'barr',
  'hon',
  'sir',
  'lady',
  'madam',
  'deacon',
  'deaconess',
  'elder',
  'mallam',
]);

/** The words of a parent's name as compared: folded, lower case, titles ("Mr", "Alhaji", "Dr.") left out, sorted. */
export function parentNameWords(name: string): string[] {
  const words = name
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((w) => w.replace(/^[-']+|[-']+$/g, ''))
    .filter((w) => w && !TITLES.has(w));
  return [...new Set(words)].sort();
}

/**
 * Whether two spellings of a parent's name are one person for linking: the same words in any order
 * and case, titles aside ("Mr Emeka Okafor" = "okafor emeka"), or one holding every word of the
 * other when the shorter has at least two ("Emeka John Okafor" = "Emeka Okafor"). A bare surname
 * ("Mr Okafor") agrees with nothing but itself: the admin decides (never merged silently).
 */
export function parentNamesAgree(a: string, b: string): boolean {
  const x = parentNameWords(a);
  const y = parentNameWords(b);
  if (!x.length || !y.length) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (short.length === long.length) return short.every((w, i) => w === long[i]);
  return short.length >= 2 && short.every((w) => long.includes(w));
}

export const parentPhoneSchema = z
  .string({ error: PARENT_MESSAGES.phoneRequired })
  .max(PARENT_PHONE_TYPED_MAX, PARENT_MESSAGES.invalidPhone)
  .transform((v, ctx) => {
    if (!v.trim()) {
      ctx.addIssue({ code: 'custom', message: PARENT_MESSAGES.phoneRequired });
      return z.NEVER;
    }
    const phone = normaliseNigerianPhone(v);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: PARENT_MESSAGES.invalidPhone });
      return z.NEVER;
    }
    return phone;
  });

const parentName = textField("Parent's name", { required: PARENT_MESSAGES.nameRequired, error: PARENT_MESSAGES.nameRequired })
  .trim()
  .min(1, PARENT_MESSAGES.nameRequired)
  .max(PARENT_NAME_MAX, PARENT_MESSAGES.nameTooLong);

const optionalEmail = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .string({ error: PARENT_MESSAGES.invalidEmail })
    .trim()
    .max(PARENT_EMAIL_MAX, PARENT_MESSAGES.invalidEmail)
    .pipe(z.email(PARENT_MESSAGES.invalidEmail))
    .transform((e) => e.toLowerCase())
    .optional(),
);

const admissionNumber = textField('Admission number', {
  required: PARENT_MESSAGES.admissionNumberRequired,
  error: PARENT_MESSAGES.admissionNumberRequired,
})
  .trim()
  .min(1, PARENT_MESSAGES.admissionNumberRequired)
  .max(ADMISSION_NUMBER_MAX, PARENT_MESSAGES.admissionNumberRequired);

const relationship = z.enum(PARENT_RELATIONSHIPS, { error: PARENT_MESSAGES.relationshipInvalid });

/** POST /api/parents/ (admin). */
export const parentCreateSchema = z.object({ name: parentName, phone: parentPhoneSchema, email: optionalEmail });
export type ParentCreate = z.infer<typeof parentCreateSchema>;

/** POST /api/parents/:id/links/ (admin). */
export const parentLinkSchema = z.object({ admission_number: admissionNumber, relationship });
export type ParentLinkBody = z.infer<typeof parentLinkSchema>;

/** GET /api/parents/?search=&page= (admin). */
export const parentListQuerySchema = z.object({
  search: textField('Search').trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100000).optional(),
});
export type ParentListQuery = z.infer<typeof parentListQuerySchema>;

/** POST /api/parents/invitations/ and /pdf/ (admin): an arm's parents, or the school's; `again` invites those invited before too. */
export const parentInvitationSchema = z.object({
  arm: textField('Class').trim().min(1).max(40).optional(),
  again: z.boolean().optional(),
});
export type ParentInvitationBody = z.infer<typeof parentInvitationSchema>;

/** POST /api/parents/conflicts/resolve/ (admin): settles one student of one phone's conflict. */
export const parentConflictResolveSchema = z.object({
  phone: parentPhoneSchema,
  admission_number: admissionNumber,
  action: z.enum(PARENT_CONFLICT_ACTIONS, { error: PARENT_MESSAGES.actionInvalid }),
  /** With `link`: the name the parent keeps (the one on file when absent). */
  name: parentName.optional(),
});
export type ParentConflictResolve = z.infer<typeof parentConflictResolveSchema>;

/** The `admission_number` a parent names a child by on the student screens' routes (query or body). */
export const childQuerySchema = z.object({ admission_number: admissionNumber.optional() });

// Response shapes (the API of CONTRACT.md).
export interface ParentSummary {
  id: number;
  name: string;
  phone: string;
  email: string | null;
  children: number;
  invited_at: string | null;
  last_sign_in_at: string | null;
}
export interface ParentChildLink {
  admission_number: string;
  first_name: string;
  last_name: string;
  arm: string;
  relationship: ParentRelationship;
  source: ParentLinkSource;
}
export interface ParentDetail extends Omit<ParentSummary, 'children'> {
  children: ParentChildLink[];
}
export interface ParentConflict {
  phone: string;
  /** The account already holding this phone, if any. */
  parent: { id: number; name: string } | null;
  students: {
    admission_number: string;
    first_name: string;
    last_name: string;
    arm: string;
    relationship: ParentRelationship;
    name_given: string;
  }[];
}
export interface ParentSlip {
  name: string;
  phone: string;
  password: string;
  children: string[];
}
export interface ParentInvitationResult {
  invited: number;
  slips: ParentSlip[];
}
export interface ParentMeChild {
  admission_number: string;
  first_name: string;
  last_name: string;
  arm: string;
}
export interface ParentHomeChild extends ParentMeChild {
  relationship: ParentRelationship;
  photo_url: string | null;
  latest_card: {
    session_id: number;
    session: string;
    term: string;
    average: number | null;
    position: number | null;
    out_of: number | null;
  } | null;
  attendance: {
    session_id: number;
    term: string;
    present: number;
    absent: number;
    late: number;
    school_days: number;
    today: 'present' | 'absent' | 'late' | 'unmarked' | 'no_school' | null;
  } | null;
  fees: { session_id: number; term: string; due_kobo: number; paid_kobo: number; outstanding_kobo: number } | null;
}
export interface ParentLoginData {
  access: string;
  refresh: string;
  /** The first word of the parent's name (sent since parents could sign in). */
  first_name: string;
  name: string;
  phone: string;
  must_change_password: boolean;
}

/** GET /api/me/ for a parent: the account, the parent's record and the children linked. */
export interface ParentMe extends Omit<Me, 'public_id'> {
  role: 'parent';
  parent: { name: string; phone: string; email: string | null };
  children: ParentMeChild[];
}

/** What a parent types to sign in: their phone number (any spelling `normaliseNigerianPhone` reads) or their email. */
export type ParentSignInId = { kind: 'email'; email: string } | { kind: 'phone'; phone: string };

/** Reads typed parent sign-in text: with "@" an email (lower case), else a Nigerian mobile number; null when neither. */
export function readParentSignInId(raw: string): ParentSignInId | null {
  const folded = foldSignInText(raw);
  if (folded.includes('@')) {
    const email = z.email().max(254).safeParse(folded.toLowerCase());
    return email.success ? { kind: 'email', email: email.data } : null;
  }
  const phone = normaliseNigerianPhone(raw);
  return phone ? { kind: 'phone', phone } : null;
}

/** POST /api/parent/login/: `email` holds the phone number or the email (the spec's login body). */
export const parentLoginRequestSchema = z.object({
  email: z
    .string({ error: PARENT_MESSAGES.signInIdRequired })
    .max(320, PARENT_MESSAGES.invalidSignInId)
    .transform((raw, ctx): ParentSignInId => {
      if (foldSignInText(raw) === '') {
        ctx.addIssue({ code: 'custom', message: PARENT_MESSAGES.signInIdRequired });
        return z.NEVER;
      }
      const id = readParentSignInId(raw);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: PARENT_MESSAGES.invalidSignInId });
        return z.NEVER;
      }
      return id;
    }),
  password: z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(1024, AUTH_MESSAGES.invalidCredentials),
});
