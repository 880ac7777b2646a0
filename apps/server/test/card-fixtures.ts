import type { DB } from '../src/db/index';
import { nowIso } from '../src/db/index';
import '../src/modules/results/report-cards.tables';

/**
 * Report card rows written directly (the sheets' endpoints are another module's; these tests read
 * what they store): entries, term dates and form teachers.
 */
export async function putEntry(
  db: DB,
  v: {
    student_id: number;
    session_id: number;
    term: string;
    student_class: string;
    ratings?: Record<string, number>;
    form_comment?: string;
    principal_comment?: string;
    days_present?: number | null;
    days_absent?: number | null;
    promotion_override?: string | null;
    override_reason?: string;
    updated_at?: string;
  },
): Promise<void> {
  const row = {
    student_class: v.student_class,
    ratings: JSON.stringify(v.ratings ?? {}),
    form_comment: v.form_comment ?? '',
    principal_comment: v.principal_comment ?? '',
    days_present: v.days_present ?? null,
    days_absent: v.days_absent ?? null,
    promotion_override: v.promotion_override ?? null,
    override_reason: v.override_reason ?? '',
    updated_at: v.updated_at ?? nowIso(),
  };
  await db
    .insertInto('report_card_entries')
    .values({ student_id: v.student_id, session_id: v.session_id, term: v.term, version: 1, ...row })
    .onConflict((oc) => oc.columns(['student_id', 'session_id', 'term']).doUpdateSet(row))
    .execute();
}

export async function putTerm(
  db: DB,
  v: { session_id: number; term: string; next_term_begins: string | null; times_opened: number | null },
) {
  const row = { next_term_begins: v.next_term_begins, times_opened: v.times_opened, updated_at: nowIso() };
  await db
    .insertInto('report_terms')
    .values({ session_id: v.session_id, term: v.term, ...row })
    .onConflict((oc) => oc.columns(['session_id', 'term']).doUpdateSet(row))
    .execute();
}

/** Makes the staff member (staff.id) form teacher of the arm named `className` in a session. */
export async function setFormTeacher(db: DB, sessionId: number, className: string, staffId: number): Promise<void> {
  const arm = await db.selectFrom('class_arms').select('id').where('name', '=', className).executeTakeFirstOrThrow();
  await db.deleteFrom('form_teachers').where('session_id', '=', sessionId).where('arm_id', '=', arm.id).execute();
  await db.insertInto('form_teachers').values({ session_id: sessionId, arm_id: arm.id, staff_id: staffId }).execute();
}
