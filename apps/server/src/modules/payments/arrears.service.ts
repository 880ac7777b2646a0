import { TERM_VALUES, broughtForwardKobo } from '@portal/domain';
import type { ArrearsRepository } from './arrears.repository';
import { studentDuesOf, type BroughtForward, type StudentDues } from './fees.service';
import type { PaymentsRepository } from './payments.repository';

/**
 * Each student's arm in a past session, as the class history rules it (decision 038: a closed
 * session's enrolment rows, else the student's current arm); a student absent from the map was not
 * in the session. The composition root answers it from people, for every earlier session at once
 * (session id → student id → arm), in a fixed number of statements however many there are.
 */
export type ArmsInSessions = (
  sessionIds: readonly number[],
  students: readonly { id: number; student_class: string }[],
) => Promise<Map<number, Map<number, string>>>;

/** Every student in their current arm: the rule for sessions without class history. */
export const currentArms: ArmsInSessions = (sessionIds, students) =>
  Promise.resolve(new Map(sessionIds.map((id) => [id, new Map(students.map((s) => [s.id, s.student_class]))])));

export type { BroughtForward };

/**
 * The balance brought forward into a session (decision 041), computed and never stored: for each
 * earlier session the student was in, its compulsory charges after discounts (the one due rule,
 * `studentDuesOf`) less its payments net of reversals, summed: the previous session's closing
 * balance, chained through every session before it. A late payment or reversal in an old session
 * counts at once. A student was in a past session when the class history gives them an arm in it
 * and either their record was made before the session after it was created (a student admitted
 * later never owed it) or they paid in it; money paid in a session always counts. Statements: the
 * sessions (from the reference cache), then at once one for the admission days, earlier payments,
 * fees per session and arm and discounted students, and one for each earlier session's arms; then the
 * due rule (one statement) for each earlier session with a discounted student.
 */
export class ArrearsService {
  constructor(
    private readonly repo: ArrearsRepository,
    private readonly payments: PaymentsRepository,
    private readonly armsIn: ArmsInSessions = currentArms,
  ) {}

  async broughtForward(session: { id: number }, students: readonly { id: number; student_class: string }[]): Promise<BroughtForward> {
    const kobo = new Map(students.map((s) => [s.id, 0]));
    const all = await this.repo.sessionsInOrder();
    const at = all.findIndex((s) => s.id === session.id);
    if (at <= 0 || !students.length) return { from: null, kobo };
    const earlier = all.slice(0, at);
    // A school-wide list reads every student's rows: fewer bound parameters, the same sums.
    const ids = students.length > 500 ? null : students.map((s) => s.id);
    const sessionIds = earlier.map((s) => s.id);
    // Every read at once: the facts below, and each earlier session's arms (the class history's rule).
    const [{ created, paid, sums, discounts }, armsOf] = await Promise.all([
      // Admission days, earlier payments, fees per arm and discounted students: one statement.
      this.repo.facts(sessionIds, ids),
      this.armsIn(sessionIds, students),
    ]);
    const createdOf = new Map(created.map((r) => [Number(r.id), r.created_at]));
    const armTotal = new Map(sums.map((r) => [`${Number(r.session_id)}|${r.student_class}`, Number(r.due_kobo ?? 0)]));
    const discounted = new Set(discounts.map((d) => `${Number(d.session_id)}|${Number(d.student_id)}`));
    const money = new Map<number, { dueKobo: number; paidKobo: number }[]>();
    const add = (id: number, m: { dueKobo: number; paidKobo: number }) => {
      if (kobo.has(id)) money.set(id, [...(money.get(id) ?? []), m]);
    };
    const paidIn = new Set<string>();
    for (const p of paid) {
      add(Number(p.student_id), { dueKobo: 0, paidKobo: Number(p.paid ?? 0) });
      paidIn.add(`${Number(p.student_id)}|${Number(p.session_id)}`);
    }
    await Promise.all(
      earlier.map(async (past, k) => {
        const next = all[k + 1]!;
        const arms = armsOf.get(past.id) ?? new Map<number, string>();
        const inPast = students.flatMap((s) => {
          const arm = arms.get(s.id);
          const was = (createdOf.get(s.id) ?? '') < next.created_at || paidIn.has(`${s.id}|${past.id}`);
          return arm !== undefined && was ? [{ id: s.id, student_class: arm }] : [];
        });
        // Summed in the database per arm; the one due rule (`studentDuesOf`) only for students with a
        // discount in that session (a school's few), whose items it takes off one by one.
        const withDiscount = inPast.filter((s) => discounted.has(`${past.id}|${s.id}`));
        const dues = withDiscount.length ? await studentDuesOf(this.payments, past.id, withDiscount) : new Map<number, StudentDues>();
        for (const s of inPast) {
          const d = dues.get(s.id);
          const due = d ? TERM_VALUES.reduce((sum, t) => sum + (d.due[t] ?? 0), 0) : (armTotal.get(`${past.id}|${s.student_class}`) ?? 0);
          add(s.id, { dueKobo: due, paidKobo: 0 });
        }
      }),
    );
    for (const [id, list] of money) kobo.set(id, broughtForwardKobo(list));
    const prev = all[at - 1]!;
    return { from: { id: prev.id, name: prev.name }, kobo };
  }
}
