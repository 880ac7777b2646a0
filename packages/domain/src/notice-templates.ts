import { NOTICE_KINDS } from './notices';
import { textProblem } from './text';

/**
 * What a notice says (decision record 037): the school's templates per kind and channel, their
 * placeholders, and the checks a template passes before it is stored. The composer renders them
 * for each recipient; the words are the school's, these are the defaults.
 *
 * Defaults keep to the GSM-7 alphabet (no ₦: amounts read "NGN 15,000.00") so one SMS is one unit
 * for most names.
 */

/** Every kind of notice has a template: the kinds are the notices' own (notices.ts). */
export const NOTICE_TEMPLATE_KINDS = NOTICE_KINDS;
export type NoticeTemplateKind = (typeof NOTICE_TEMPLATE_KINDS)[number];

/** Every placeholder any template may use, with what it stands for (shown beside the editor). */
export const NOTICE_PLACEHOLDERS = {
  parent_name: "The parent's name",
  student_name: "The child's first and last name",
  arm: "The child's class (JSS 2B)",
  term: 'The term (1st, 2nd, 3rd)',
  session: 'The session (2025/2026)',
  school: "The school's name",
  receipt_number: 'The receipt number',
  amount: 'The amount paid (NGN 15,000.00)',
  balance: 'What is still owed (NGN 5,000.00)',
  date: 'The day (28 Nov 2026)',
  days: 'A number of days',
  message: "The notice's text, as the admin wrote it",
  subject: "The notice's subject, as the admin wrote it",
  sign_in: 'The phone number or email the parent signs in with',
  password: 'The one-time password (changed at first sign-in)',
  link: "The portal's address",
} as const;
export type NoticePlaceholder = keyof typeof NOTICE_PLACEHOLDERS;

/** The placeholders each kind's templates may use: the composer fills every one of them. */
export const NOTICE_KIND_PLACEHOLDERS: Record<NoticeTemplateKind, readonly NoticePlaceholder[]> = {
  results_released: ['parent_name', 'student_name', 'arm', 'term', 'session', 'school', 'link'],
  payment_received: ['parent_name', 'student_name', 'arm', 'amount', 'receipt_number', 'term', 'session', 'date', 'school', 'link'],
  absent_today: ['parent_name', 'student_name', 'arm', 'date', 'school'],
  absent_streak: ['parent_name', 'student_name', 'arm', 'days', 'date', 'school'],
  fees_overdue: ['parent_name', 'student_name', 'arm', 'balance', 'days', 'term', 'session', 'date', 'school', 'link'],
  custom: ['parent_name', 'school', 'date', 'message', 'subject'],
  parent_invited: ['parent_name', 'school', 'sign_in', 'password', 'link'],
};

/** The placeholders an admin may use in a blast's own text (its subject and body). */
export const BLAST_PLACEHOLDERS: readonly NoticePlaceholder[] = ['parent_name', 'school', 'date'];

export const NOTICE_TEMPLATE_CHANNELS = ['sms', 'email'] as const;
export type NoticeTemplateChannel = (typeof NOTICE_TEMPLATE_CHANNELS)[number];

export interface NoticeTemplateText {
  sms_body: string;
  email_subject: string;
  email_body: string;
}

/** Longest texts a template (or a blast) may hold: an SMS of six GSM-7 units, an email of a page or two. */
export const NOTICE_LIMITS = { smsBody: 918, emailSubject: 150, emailBody: 5000 } as const;

/** The defaults: plain, short, the way a school office writes to parents. */
export const DEFAULT_NOTICE_TEMPLATES: Record<NoticeTemplateKind, NoticeTemplateText> = {
  results_released: {
    sms_body:
      "{school}: {student_name}'s {term} term results ({arm}, {session}) are out. Log in to the parents' portal to see the report card.",
    email_subject: "{student_name}'s {term} term results are out",
    email_body:
      "Dear {parent_name},\n\n{student_name}'s {term} term results for the {session} session ({arm}) have been released.\n\nLog in to the parents' portal to see and print the report card: {link}\n\n{school}",
  },
  payment_received: {
    sms_body: '{school}: we received {amount} for {student_name}, {term} term. Receipt {receipt_number}. Thank you.',
    email_subject: 'Payment received: receipt {receipt_number}',
    email_body:
      "Dear {parent_name},\n\nWe received {amount} on {date} for {student_name} ({arm}), {term} term {session}.\nReceipt number: {receipt_number}\n\nThe receipt and the balance are on the parents' portal: {link}\n\nThank you.\n{school}",
  },
  absent_today: {
    sms_body: '{school}: {student_name} ({arm}) was marked absent today, {date}. Please call the school if you did not know.',
    email_subject: '{student_name} was absent today',
    email_body:
      'Dear {parent_name},\n\n{student_name} ({arm}) was marked absent from school today, {date}.\n\nIf you did not know, please contact the school.\n\n{school}',
  },
  absent_streak: {
    sms_body: '{school}: {student_name} ({arm}) has been absent {days} school days in a row, up to {date}. Please see the form teacher.',
    email_subject: '{student_name} has been absent {days} days in a row',
    email_body:
      'Dear {parent_name},\n\n{student_name} ({arm}) has been absent from school for {days} school days in a row, up to {date}.\n\nPlease contact the form teacher.\n\n{school}',
  },
  fees_overdue: {
    sms_body:
      "{school}: {student_name}'s school fees of {balance} are {days} days overdue. Please pay on the portal or at the bursary. Ignore if paid.",
    email_subject: "{student_name}'s school fees are overdue",
    email_body:
      "Dear {parent_name},\n\n{student_name}'s ({arm}) school fees of {balance} for the {term} term, {session}, are {days} days overdue.\n\nPlease pay on the parents' portal ({link}) or at the bursary. If you have paid, please ignore this message.\n\n{school}",
  },
  custom: {
    sms_body: '{school}: {message}',
    email_subject: '{subject}',
    email_body: 'Dear {parent_name},\n\n{message}\n\n{school}',
  },
  parent_invited: {
    sms_body:
      "{school}: your parents' portal account is ready. Sign in at {link} with {sign_in} and password {password}, then choose your own.",
    email_subject: "Your {school} parents' portal account",
    email_body:
      "Dear {parent_name},\n\nYour account on the {school} parents' portal is ready.\n\nAddress: {link}\nSign in with: {sign_in}\nOne-time password: {password}\n\nYou will choose your own password when you first sign in.\n\n{school}",
  },
};

/** Typical values, for the editor's preview and length: a long-ish name, a five-figure amount. */
export const NOTICE_SAMPLE_VALUES: Record<NoticePlaceholder, string> = {
  parent_name: 'Mrs Ngozi Okafor',
  student_name: 'Chidera Okafor',
  arm: 'JSS 2B',
  term: '1st',
  session: '2025/2026',
  school: 'Unity Sec. Sch.',
  receipt_number: 'R-000123',
  amount: 'NGN 45,000.00',
  balance: 'NGN 5,000.00',
  date: '28 Nov 2026',
  days: '14',
  message: 'PTA meeting on Saturday at 10am.',
  subject: 'PTA meeting',
  sign_in: '+2348031234567',
  password: 'kite-42-mango',
  link: 'https://unity.sch.ng',
};

/** Template rows and API shapes. */
export interface NoticeTemplateView extends NoticeTemplateText {
  kind: NoticeTemplateKind;
  placeholders: { name: NoticePlaceholder; description: string }[];
  /** The defaults, for "reset" (PUT them back). */
  default: NoticeTemplateText;
  is_default: boolean;
  /** The SMS with the sample values: its encoding, length and units. */
  sms: { preview: string; encoding: 'GSM-7' | 'UCS-2'; characters: number; units: number };
  updated_at: string | null;
}

export const NOTICE_REMINDER_LIMITS = { maxDays: 365, maxCount: 6 } as const;

/**
 * A student's own in-app notice where one fits (their results, a payment for them): fixed words, not
 * a school template, since the templates speak to parents.
 */
export const STUDENT_NOTICE_TEXTS = {
  results_released: {
    subject: 'Your {term} term results are out',
    body: 'Your {term} term results for the {session} session are out. Open Report Card to see them.',
  },
  payment_received: {
    subject: 'Payment received: receipt {receipt_number}',
    body: '{amount} was received for your {term} term fees. Receipt {receipt_number}.',
  },
} as const;

export const NOTICE_TEMPLATE_MESSAGES = {
  unknownPlaceholder: (name: string, allowed: readonly string[]) =>
    `{${name}} is not a placeholder this notice can use. Use ${allowed.map((p) => `{${p}}`).join(', ')}.`,
  malformedPlaceholder: (fragment: string) =>
    `"${fragment}" is not a placeholder: write a name of small letters in braces, like {student_name}, and no other braces.`,
  bodyRequired: 'Write the message.',
  subjectRequired: 'Write the subject.',
  tooLong: (max: number) => `Must be at most ${max} characters.`,
  kindUnknown: 'There is no such notice kind.',
  templateSaved: 'Template saved.',
  templateReset: 'Template reset to the default.',
  channelsRequired: 'Choose at least one way to send: SMS, email or in-app.',
  armRequired: 'Choose the class.',
  levelRequired: 'Choose the class level.',
  noRecipients: 'No parent matches this audience.',
  blastNotFound: 'Notice not found.',
  blastNotSending: 'Only a notice that is sending can be paused.',
  blastNotPaused: 'Only a paused notice can be resumed.',
  blastFinished: 'This notice has already finished or been cancelled.',
  reminderDays: 'Give up to 6 different whole numbers of days from 1 to 365.',
  remindersSaved: 'Reminder days saved.',
  unicodeWarning: (chars: readonly string[]) =>
    `${chars.join(' ')} makes each SMS hold 70 characters instead of 160. Write NGN for ₦ and straight quotes to send fewer units.`,
} as const;

/** A placeholder as written: braces around small letters and underscores. */
const PLACEHOLDER = /\{([a-z_]+)\}/g;
// eslint-disable-next-line no-control-regex -- the control characters are what it matches
const CONTROL_IN_VALUE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

export interface TemplateProblem {
  /** The placeholder or fragment at fault, as written. */
  fragment: string;
  message: string;
}

/**
 * What is wrong with `text` as a template of `kind` (or with the given placeholders): unknown
 * placeholders, malformed ones (a brace that does not open or close a {name}), control characters.
 * An empty list is a good template. Each fragment is named once.
 */
export function checkTemplate(
  kind: NoticeTemplateKind | readonly NoticePlaceholder[],
  text: string,
  label = 'The template',
): TemplateProblem[] {
  const allowed: readonly string[] = typeof kind === 'string' ? NOTICE_KIND_PLACEHOLDERS[kind] : kind;
  const problems: TemplateProblem[] = [];
  const seen = new Set<string>();
  const add = (fragment: string, message: string) => {
    if (seen.has(fragment)) return;
    seen.add(fragment);
    problems.push({ fragment, message });
  };
  const control = textProblem(text, { label, multiline: true });
  if (control) add('', control);
  // Everything that is not a well-formed placeholder must hold no brace.
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    malformedIn(text.slice(last, m.index), add);
    const name = m[1]!;
    if (!allowed.includes(name)) add(`{${name}}`, NOTICE_TEMPLATE_MESSAGES.unknownPlaceholder(name, allowed));
    last = m.index + m[0].length;
  }
  malformedIn(text.slice(last), add);
  return problems;
}

/** Each brace in `between` (text between well-formed placeholders), with a little of what follows it. */
function malformedIn(between: string, add: (fragment: string, message: string) => void): void {
  const re = /[{}][^{}\s]{0,20}\}?/g;
  for (const m of between.matchAll(re)) add(m[0], NOTICE_TEMPLATE_MESSAGES.malformedPlaceholder(m[0]));
}

/** The placeholders `text` uses, in order of first use. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * `template` with each {name} replaced by its value (one pass: a value holding "{x}" stays as
 * written). A placeholder without a value becomes empty.
 */
export function renderTemplate(template: string, values: Partial<Record<NoticePlaceholder, string | number | null>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = (values as Record<string, string | number | null | undefined>)[name];
    // A value never brings a control character into a message (a line break in a name included).
    return v === null || v === undefined ? '' : String(v).replace(CONTROL_IN_VALUE, ' ');
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An amount as a notice writes it, in the GSM-7 alphabet: "NGN 45,000.00" (never ₦, which doubles the SMS units). */
export function noticeAmount(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(Math.round(kobo));
  const naira = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}NGN ${naira}.${String(abs % 100).padStart(2, '0')}`;
}

/** A school day ("2026-11-28") as a notice writes it: "28 Nov 2026". */
export function noticeDate(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** Children's names joined for one message to their parent: "Ada Obi", "Ada Obi and Chidi Obi", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
