// The report sheets' rows: ratings as stored and shown, a blank entry, an entry as audited, the
// conflict of a row changed under the client, and the types of a sheet's context and a save's plan.
import { CARD_CODES, personName, RATING_DOMAINS, REPORT_MESSAGES, type Ratings, type ReportSettings, type Term } from '@portal/domain';
import { HttpError } from '../../http/errors';
import type { EntryRow, EntryWrite } from './card-entries.repository';
import type { SheetStudentRow } from './score-sheet.repository';

export interface SheetQuery {
  session_id: number;
  term: Term;
  student_class: string;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ratings as stored: a JSON object of trait id → 1..5 (anything else in it is ignored). */
export function parseRatings(json: string | undefined): Ratings {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => Number.isInteger(e[1])));
  } catch {
    return {};
  }
}

export const traitIds = (settings: ReportSettings) => new Set(RATING_DOMAINS.flatMap((d) => settings.traits[d].map((t) => t.id)));

/** Ratings of traits in the current lists only: a removed trait's ratings stay stored but are not shown. */
export function shownRatings(all: Ratings, ids: ReadonlySet<string>): Ratings {
  return Object.fromEntries(Object.entries(all).filter(([k]) => ids.has(k)));
}

export const sortedJson = (r: Ratings) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => cmp(a, b))));

/** What an entry is when nothing has been written for the student yet. */
export function blankEntry(s: SheetStudentRow, cls: string): EntryRow {
  return {
    student_id: s.id,
    student_class: cls,
    ratings: '{}',
    form_comment: '',
    principal_comment: '',
    days_present: null,
    days_absent: null,
    promotion_override: null,
    override_reason: '',
    version: 0,
  };
}

/** An entry as the audit log keeps it. */
export const audited = (e: EntryRow | EntryWrite) => ({
  student_class: e.student_class,
  ratings: parseRatings(e.ratings),
  form_comment: e.form_comment,
  principal_comment: e.principal_comment,
  days_present: e.days_present,
  days_absent: e.days_absent,
  promotion_override: e.promotion_override,
  override_reason: e.override_reason,
});

/** Thrown inside a save's transaction when a row changed under the client; answered after the rollback. */
export class RowChanged extends Error {
  constructor(readonly student: SheetStudentRow) {
    super('card entry changed');
  }
}
export const changedError = (s: SheetStudentRow) =>
  new HttpError(409, {
    detail: REPORT_MESSAGES.changedByOther(personName(s)),
    code: CARD_CODES.changed,
    admission_number: s.admission_number,
  });

/** Who is looking at an arm's sheet, and the arm's status. */
export interface Context {
  session: { id: number; name: string; current: boolean; open: boolean };
  formTeacher: { user_id: number; name: string } | null;
  isFormTeacher: boolean;
  settings: ReportSettings;
  students: SheetStudentRow[];
}

/** One row of a save, changed or not, with its student and what is stored now. */
export interface Planned {
  student: SheetStudentRow;
  stored: EntryRow;
  next: EntryWrite;
  changed: boolean;
}
