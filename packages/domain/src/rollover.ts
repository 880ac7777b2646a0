// Starting the next session (issue 34, item 5; docs/decisions/040): the shapes of the preview and the
// step, its messages, and its pure rules (the next name, the dates moved a year on, the fee increase).
import { z } from 'zod';
import { TERM_VALUES, type Term } from './constants';
import { addDays, ATTENDANCE_MESSAGES, MAX_TERM_DAYS, dayNumber } from './attendance-rules';
import { isoDateField } from './report-card-schemas';
import { sessionIdField, sessionNameField } from './result-schemas';
import type { CalendarEventKind } from './attendance-calendar';
import type { RolloverTerm } from './rollover-responses';
export type { RolloverPreview, RolloverResult, RolloverTerm } from './rollover-responses';

export const ROLLOVER_MESSAGES = {
  title: 'Start next session',
  fromSessionRequired: 'Choose the session to start the next one from.',
  termsRequired: 'Give the three terms of the new session, 1st to 3rd, each once.',
  percentInvalid: 'The fee increase is a percentage from 0 to 100, with at most two decimal places.',
  makeCurrentInvalid: 'Make it the current session must be true or false.',
  copyInvalid: 'Each copy is ticked (true) or not (false).',
  nextTermBeginsBeforeEnd: 'The next term cannot begin before this term ends.',
  done: (name: string) => `${name} is ready.`,
  madeCurrent: (name: string) => `${name} is now the current session.`,
  notCurrent: (name: string) => `${name} is ready; the current session has not changed.`,
  nameTaken: (name: string) => `A session named ${name} already exists: choose another name.`,
  reportSettingsSchoolWide:
    "The new session starts with them as they are. Once it is current, changes to them no longer reach this session's cards.",
  failed: 'The next session could not be started; nothing was saved.',
} as const;

/** The copies the step can make, in the order the screen shows them. */
export const ROLLOVER_COPIES = [
  'calendar_events',
  'fee_items',
  'assessment_schemes',
  'grading_scales',
  'report_card_settings',
  'teaching_assignments',
  'form_teachers',
  'enforcement_and_windows',
] as const;
export type RolloverCopy = (typeof ROLLOVER_COPIES)[number];

export const ROLLOVER_COPY_LABELS: Record<RolloverCopy, string> = {
  calendar_events: 'Holidays, breaks and extra school days',
  fee_items: 'Fee items',
  assessment_schemes: 'Assessment schemes',
  grading_scales: 'Grading scales',
  report_card_settings: 'Report card settings',
  teaching_assignments: 'Teaching assignments',
  form_teachers: 'Form teachers',
  enforcement_and_windows: 'Enforcement and score-entry windows',
};

// ---------- pure rules ----------

/** "2025/2026" → "2026/2027"; null for a name of another form. */
export function nextSessionName(name: string): string | null {
  const m = /^(\d{4})\/(\d{4})$/.exec(name);
  return m ? `${Number(m[1]) + 1}/${Number(m[2]) + 1}` : null;
}

/**
 * A date of the previous session's pattern moved a year on, on the same weekday (52 weeks later:
 * a term that began on a Monday begins on a Monday).
 */
export function aYearOn(iso: string): string {
  return addDays(iso, 364);
}

/** `iso` on the same day and month `years` years later; 29 February becomes the 28th in a common year. */
export function sameDateYearsOn(iso: string, years: number): string {
  const [y, m, d] = iso.split('-');
  const year = Number(y) + years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${String(year).padStart(4, '0')}-${m}-${m === '02' && d === '29' && !leap ? '28' : d}`;
}

/**
 * Where a calendar event of the previous session goes in the next (docs/decisions/057), its length
 * kept. It moves with its term (the one it starts in, else the 1st): a mid-term break or an extra
 * school day as many days after the new term's start as it was after the old one's (so a
 * Monday-to-Friday break stays Monday to Friday, and follows a term whose dates were edited); a
 * holiday to the same date in the year the term moved to, as Nigeria's fixed holidays (1 October,
 * 1 May, 12 June, 1 January, 25 December) fall on the same date every year. Holidays that follow the
 * moon or Easter are the admin's to check. `fromTerms` has at least one dated term.
 */
export function movedEvent(
  event: { kind: CalendarEventKind; starts_on: string; ends_on: string },
  fromTerms: readonly { term: Term; starts_on: string | null; ends_on: string | null }[],
  toTerms: readonly { term: Term; starts_on: string }[],
): { starts_on: string; ends_on: string } {
  const dated = fromTerms.filter((t) => t.starts_on && t.ends_on).sort((a, b) => (a.starts_on! < b.starts_on! ? -1 : 1));
  const from = dated.find((t) => t.starts_on! <= event.starts_on && event.starts_on <= t.ends_on!) ?? dated[0]!;
  const to = toTerms.find((t) => t.term === from.term) ?? toTerms[0]!;
  const shift = dayNumber(to.starts_on) - dayNumber(from.starts_on!);
  const starts_on =
    event.kind === 'holiday' ? sameDateYearsOn(event.starts_on, Math.round(shift / 365.2425)) : addDays(event.starts_on, shift);
  return { starts_on, ends_on: addDays(starts_on, dayNumber(event.ends_on) - dayNumber(event.starts_on)) };
}

/** ₦50 in kobo: what an increased fee is rounded to. */
export const FEE_ROUNDING_KOBO = 5_000;

/**
 * A fee (kobo) raised by `basisPoints` hundredths of a percent and rounded to the nearest ₦50 (a half
 * rounds up), in integer math. No increase (0) keeps the amount exactly as it was.
 */
export function increasedFeeKobo(amountKobo: number, basisPoints: number): number {
  if (!basisPoints) return amountKobo;
  const scaled = BigInt(amountKobo) * BigInt(10_000 + basisPoints);
  const unit = 10_000n * BigInt(FEE_ROUNDING_KOBO);
  return Number(((scaled + unit / 2n) / unit) * BigInt(FEE_ROUNDING_KOBO));
}

/** The first date on or after `iso` that falls on `weekday` (0 = Sunday … 6 = Saturday). */
function onOrAfter(iso: string, weekday: number): string {
  const d = dayNumber(iso);
  // Day 0 (1970-01-01) was a Thursday (4).
  return addDays(iso, (((weekday - ((d + 4) % 7)) % 7) + 7) % 7);
}

/**
 * The next session's terms: the previous session's dates a year on (`aYearOn`), its card's "next term
 * begins" likewise (the following term's start where it had none; the 3rd term's: the next 1st term a
 * year on). A session without dates gives a usual Nigerian pattern for the new name's first year:
 * September to December, January to April, late April to July, Monday to Friday.
 */
export function proposedTerms(
  pattern: readonly { term: Term; starts_on: string | null; ends_on: string | null; next_term_begins: string | null }[],
  newName: string,
): RolloverTerm[] {
  const year = Number(/^(\d{4})\//.exec(newName)?.[1] ?? new Date().getUTCFullYear());
  const fallback: Record<Term, [string, string]> = {
    '1st': [onOrAfter(`${year}-09-08`, 1), onOrAfter(`${year}-12-12`, 5)],
    '2nd': [onOrAfter(`${year + 1}-01-05`, 1), onOrAfter(`${year + 1}-04-03`, 5)],
    '3rd': [onOrAfter(`${year + 1}-04-27`, 1), onOrAfter(`${year + 1}-07-24`, 5)],
  };
  const dated = pattern.every((p) => p.starts_on && p.ends_on);
  const terms = TERM_VALUES.map((term) => {
    const p = pattern.find((x) => x.term === term);
    const [starts_on, ends_on] = dated && p ? [aYearOn(p.starts_on!), aYearOn(p.ends_on!)] : fallback[term];
    return { term, starts_on, ends_on, next_term_begins: dated && p?.next_term_begins ? aYearOn(p.next_term_begins) : null };
  });
  return terms.map((t, i) => ({
    ...t,
    next_term_begins: t.next_term_begins ?? (i < 2 ? terms[i + 1]!.starts_on : aYearOn(terms[0]!.starts_on)),
  }));
}

// ---------- schemas ----------

export const rolloverPreviewQuerySchema = z.object({ from_session_id: sessionIdField.optional() });

const percentField = z
  .number({ error: ROLLOVER_MESSAGES.percentInvalid })
  .min(0, ROLLOVER_MESSAGES.percentInvalid)
  .max(100, ROLLOVER_MESSAGES.percentInvalid)
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, ROLLOVER_MESSAGES.percentInvalid);

const copyFlag = z.boolean({ error: ROLLOVER_MESSAGES.copyInvalid });

export const rolloverTermSchema = z
  .object({
    term: z.enum(TERM_VALUES, { error: ROLLOVER_MESSAGES.termsRequired }),
    starts_on: isoDateField,
    ends_on: isoDateField,
    next_term_begins: isoDateField.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (!isoDateField.safeParse(v.starts_on).success || !isoDateField.safeParse(v.ends_on).success) return;
    if (v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.termEndBeforeStart });
    else if (dayNumber(v.ends_on) - dayNumber(v.starts_on) + 1 > MAX_TERM_DAYS)
      ctx.addIssue({ code: 'custom', path: ['ends_on'], message: ATTENDANCE_MESSAGES.termTooLong });
    if (v.next_term_begins && v.next_term_begins <= v.ends_on)
      ctx.addIssue({ code: 'custom', path: ['next_term_begins'], message: ROLLOVER_MESSAGES.nextTermBeginsBeforeEnd });
  });

export const rolloverSchema = z.object({
  from_session_id: sessionIdField,
  name: sessionNameField,
  terms: z
    .array(rolloverTermSchema, { error: ROLLOVER_MESSAGES.termsRequired })
    .length(3, ROLLOVER_MESSAGES.termsRequired)
    .refine((ts) => TERM_VALUES.every((t) => ts.filter((x) => x.term === t).length === 1), ROLLOVER_MESSAGES.termsRequired),
  copy: z.object({
    // Optional (unticked) for callers written before it existed; the screen ticks it.
    calendar_events: copyFlag.optional().default(false),
    fee_items: copyFlag,
    fee_increase_percent: percentField.nullable().optional(),
    assessment_schemes: copyFlag,
    grading_scales: copyFlag,
    report_card_settings: copyFlag,
    teaching_assignments: copyFlag,
    form_teachers: copyFlag,
    enforcement_and_windows: copyFlag,
  }),
  make_current: z.boolean({ error: ROLLOVER_MESSAGES.makeCurrentInvalid }).optional().default(false),
});
export type RolloverInput = z.output<typeof rolloverSchema>;

// ---------- the screen (/session-rollover) ----------

export { ROLLOVER_SCREEN } from './rollover-screen';

export const ROLLOVER_LABELS = {
  fromSession: 'Start from',
  name: 'New session name',
  nameHint: 'The previous session’s name a year on; change it if the school names sessions otherwise.',
  termsTitle: 'Terms of the new session',
  termsHint: 'The previous session’s dates moved a year on, each on the same weekday. Edit them as the school has decided.',
  termStarts: (term: string) => `${term} starts`,
  termEnds: (term: string) => `${term} ends`,
  nextTermBegins: (term: string) => `${term}: next term begins`,
  copiesTitle: 'Copy from the previous session',
  copyCount: (n: number) => (n === 1 ? '1 row' : `${n} rows`),
  calendarEventsHint:
    'Holidays keep their date a year on; mid-term breaks and extra school days keep their place in their term. Check holidays that follow the moon or Easter on the School Calendar afterwards.',
  feeIncrease: 'Fee increase (%)',
  feeIncreaseHint: 'Optional. Each fee is raised by this percentage and rounded to the nearest ₦50.',
  makeCurrent: 'Make it the current session now',
  makeCurrentHint: 'Leave unticked to prepare the new session while this one stays current; switch later under Sessions.',
  start: 'Start next session',
  starting: 'Starting...',
  resultTitle: 'Next session started',
  copiedRow: (label: string, n: number) => `${label}: ${n} copied`,
  startAnother: 'Back to the preview',
  loadFailed: 'Failed to load the next session’s preview.',
  noSession: 'Create the school’s first session under Sessions before starting the next one.',
} as const;
