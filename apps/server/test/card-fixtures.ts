import { sql } from 'kysely';
import type { DB } from '../src/db/index';
import { nowIso } from '../src/db/index';
import { createFeeItems, createPayment } from '../src/db/factories';
import '../src/modules/results/report-cards.tables';
import '../src/modules/payments/payments.tables';

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

/**
 * Writes a term's card fields ("next term begins", typed times opened): on the term's row since
 * migration 0031, in `report_terms` on a database an upgrade test holds at an earlier migration.
 */
export async function putTerm(
  db: DB,
  v: { session_id: number; term: string; next_term_begins: string | null; times_opened: number | null },
) {
  const row = { next_term_begins: v.next_term_begins, times_opened: v.times_opened, updated_at: nowIso() };
  const merged = await sql`select name from kysely_migration where name = '0031_one_term_table'`.execute(db);
  if (!merged.rows.length) {
    await sql`insert into report_terms (session_id, term, next_term_begins, times_opened, updated_at)
      values (${v.session_id}, ${v.term}, ${row.next_term_begins}, ${row.times_opened}, ${row.updated_at})
      on conflict (session_id, term) do update set next_term_begins = excluded.next_term_begins,
        times_opened = excluded.times_opened, updated_at = excluded.updated_at`.execute(db);
    return;
  }
  await db
    .insertInto('school_terms')
    .values({ session_id: v.session_id, term: v.term, starts_on: null, ends_on: null, ...row })
    .onConflict((oc) => oc.columns(['session_id', 'term']).doUpdateSet(row))
    .execute();
}

/** Makes the staff member (staff.id) form teacher of the arm named `className` in a session. */
export async function setFormTeacher(db: DB, sessionId: number, className: string, staffId: number): Promise<void> {
  const arm = await db.selectFrom('class_arms').select('id').where('name', '=', className).executeTakeFirstOrThrow();
  await db.deleteFrom('form_teachers').where('session_id', '=', sessionId).where('arm_id', '=', arm.id).execute();
  await db.insertInto('form_teachers').values({ session_id: sessionId, arm_id: arm.id, staff_id: staffId }).execute();
}

/**
 * A card's fees, written straight to the payments tables (results' tests do not import payments):
 * 1st term ₦40,000 and 2nd term ₦50,000 compulsory for the class, an optional ₦10,000 bus in the
 * 2nd, and ₦15,000 paid by `student` in the 1st.
 */
export async function putCardFees(
  db: DB,
  q: { sessionId: number; sessionName: string; arm: string; student: { id: number; admissionNumber: string } },
): Promise<void> {
  const item = (term: '1st' | '2nd', name: string, amountKobo: number, compulsory: boolean) => ({
    arm: q.arm,
    sessionId: q.sessionId,
    term,
    name,
    amountKobo,
    compulsory,
  });
  await createFeeItems(db, [
    item('1st', 'Tuition', 4_000_000, true),
    item('2nd', 'Tuition', 5_000_000, true),
    item('2nd', 'Bus', 1_000_000, false),
  ]);
  await createPayment(db, {
    reference: `card-${q.sessionId}`,
    studentId: q.student.id,
    admissionNumber: q.student.admissionNumber,
    arm: q.arm,
    session: q.sessionName,
    term: '1st',
    amountKobo: 1_500_000,
    status: 'successful',
  });
}
