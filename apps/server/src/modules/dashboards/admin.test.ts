import { beforeAll, expect, it } from 'vitest';
import type { AbsentToday, ArmApproval, CollectionSummary, DebtorsPage, ScoreSheet } from '@portal/domain';
import type { AdminDashboard } from '@portal/domain/dashboard-admin';
import { createFeeItems } from '../../db/factories';
import { nowIso, type DB } from '../../db/index';
import {
  addStudent,
  describeEachDatabase,
  json,
  requestsOn,
  servicesOver,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { firstTermCalendar, testClock } from '../../../test/attendance-fixtures';
import { recordPayment } from '../../../test/payments-fixtures';
import { countStatements } from '../../../test/statement-count';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import '../attendance/attendance.tables';
import '../results/results.tables';
import '../results/report-cards.tables';

const TODAY = '2025-10-20';
const URL = '/api/dashboards/admin/';

describeEachDatabase('admin dashboard', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number;
  const clock = testClock(TODAY);
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: clock.now }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    await firstTermCalendar(ctx.app, admin.auth, sessionId);
  });
  const db = (): DB => ctx.handle.db;
  const { get, post } = requestsOn(() => ctx);
  const qs = (o: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const dashboard = async (): Promise<AdminDashboard> => {
    const res = await get(admin, URL);
    expect(res.statusCode, res.body).toBe(200);
    return json<AdminDashboard>(res);
  };

  /** Students of an arm; the first `present` of them marked present in today's morning register, the rest absent. */
  async function arm(name: string, n: number) {
    const kids = [];
    for (let i = 0; i < n; i++) kids.push(await addStudent(ctx, name, 'Dash', `${name.replace(/\W/g, '')}${i}`));
    return kids;
  }
  async function register(cls: string, kids: { id: number }[], present: number) {
    const { id } = await db()
      .insertInto('attendance_registers')
      .values({
        student_class: cls,
        date: TODAY,
        period: 'morning',
        session_id: sessionId,
        term: '1st',
        marked_by: null,
        marked_at: nowIso(),
        updated_by: null,
        updated_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('attendance_marks')
      .values(kids.map((k, i) => ({ register_id: id, student_id: k.id, status: i < present ? 'present' : 'absent' })))
      .execute();
  }
  async function scores(cls: string, kids: { admissionNumber: string }[], subject: string, n: number) {
    for (const [i, k] of kids.slice(0, n).entries()) {
      const res = await post(admin, '/api/results/', {
        admission_number: k.admissionNumber,
        session_id: sessionId,
        term: '1st',
        student_class: cls,
        subjects: [{ name: subject, score: 45 + ((i * 20) % 55) }],
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
  }

  let jss1a: Awaited<ReturnType<typeof arm>>, jss1b: Awaited<ReturnType<typeof arm>>;
  beforeAll(async () => {
    await offerAtLevel(db(), 'JSS 1', ['Mathematics', 'English Language']);
    await offerAtLevel(db(), 'SSS 1', ['Mathematics']);
    jss1a = await arm('JSS 1A', 3);
    jss1b = await arm('JSS 1B', 2);
    await arm('SSS 1A', 2);
    await register('JSS 1A', jss1a, 2);
    await register('JSS 1B', jss1b, 2);
    await scores('JSS 1A', jss1a, 'Mathematics', 3);
    await scores('JSS 1A', jss1a, 'English Language', 1);
    await scores('JSS 1B', jss1b, 'Mathematics', 2);
    // JSS 1A's 1st term released; JSS 1B's cards submitted.
    await db()
      .insertInto('result_publications')
      .values({ session_id: sessionId, term: '1st', student_class: 'JSS 1A', published_by: null, published_at: nowIso() })
      .execute();
    await db()
      .insertInto('report_card_status')
      .values({
        session_id: sessionId,
        term: '1st',
        student_class: 'JSS 1B',
        status: 'submitted',
        submitted_by: null,
        submitted_at: nowIso(),
        approved_by: null,
        approved_at: null,
        returned_reason: null,
        returned_at: null,
        updated_at: nowIso(),
      })
      .execute();
    // Fees: JSS 1 owes 10,000 a term; one JSS 1A student paid 4,000 five days ago, one JSS 1B student all of it.
    for (const cls of ['JSS 1A', 'JSS 1B'])
      await createFeeItems(db(), [
        { arm: cls, sessionId, term: '1st', name: 'Tuition', amountKobo: 1_000_000 },
        { arm: cls, sessionId, term: '2nd', name: 'Tuition', amountKobo: 1_000_000 },
      ]);
    await recordPayment(ctx, admin, {
      admission_number: jss1a[0]!.admissionNumber,
      session_id: sessionId,
      amount: 4000,
      bank_reference: 'DASH-1',
      paid_on: '2025-10-15',
    });
    await recordPayment(ctx, admin, {
      admission_number: jss1b[0]!.admissionNumber,
      session_id: sessionId,
      amount: 10000,
      bank_reference: 'DASH-2',
      paid_on: '2025-10-20',
    });
  });

  it('is the admin’s alone; a session without a term, or a term without a session, is 400', async () => {
    expect((await get(staff, URL)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await get(admin, `${URL}?term=1st`)).statusCode).toBe(400);
    expect((await get(admin, `${URL}?session_id=${sessionId}`)).statusCode).toBe(400);
    expect((await get(admin, `${URL}?session_id=2147000000&term=1st`)).statusCode).toBe(404);
    const d = await dashboard();
    expect(d.session?.id).toBe(sessionId);
    expect(d.term).toBe('1st');
    expect(d.today).toBe(TODAY);
  });

  it('attendance: the absent-today report’s arms marked and absentees, arm by arm', async () => {
    const d = await dashboard();
    const report = json<AbsentToday>(await get(admin, `/api/attendance/absent/?date=${TODAY}`));
    expect(d.attendance.arms.filter((a) => !a.marked).map((a) => a.student_class)).toEqual(report.arms_not_marked);
    expect(d.attendance.arms.filter((a) => a.marked)).toHaveLength(report.arms_marked);
    for (const a of d.attendance.arms.filter((x) => x.marked)) {
      const absent = report.absentees.filter((r) => r.student_class === a.student_class && r.period === 'morning').length;
      expect(a.marks - a.present, a.student_class).toBe(absent);
    }
    expect(d.attendance.arms.find((a) => a.student_class === 'JSS 1A')).toMatchObject({ present: 2, marks: 3, present_pct: 66.7 });
  });

  it('score entry: each cell is its score sheet’s rows entered against rows taking the subject', async () => {
    const d = await dashboard();
    expect(d.score_entry.cells.length).toBeGreaterThan(0);
    for (const c of d.score_entry.cells) {
      const sheet = json<ScoreSheet>(
        await get(
          admin,
          `/api/score-sheet/?${qs({ session_id: sessionId, term: '1st', student_class: c.student_class, subject: c.subject })}`,
        ),
      );
      expect({ entered: c.entered, expected: c.expected }, `${c.student_class} ${c.subject}`).toEqual({
        entered: sheet.rows.filter((r) => r.result).length,
        expected: sheet.rows.filter((r) => r.takes).length,
      });
    }
    expect(d.score_entry.cells.find((c) => c.student_class === 'JSS 1A' && c.subject === 'English Language')).toMatchObject({
      entered: 1,
      expected: 3,
    });
  });

  it('report cards: the approvals screen’s status of every arm', async () => {
    const d = await dashboard();
    const approvals = json<ArmApproval[]>(await get(admin, `/api/report-approvals/?session_id=${sessionId}&term=1st`));
    expect(d.report_cards.map((a) => [a.student_class, a.status])).toEqual(approvals.map((a) => [a.student_class, a.status]));
    expect(Object.fromEntries(d.report_cards.map((a) => [a.student_class, a.status]))).toMatchObject({
      'JSS 1A': 'released',
      'JSS 1B': 'submitted',
    });
  });

  it('fees: the collection summary’s totals, levels and days, and the debtors report’s count and total', async () => {
    const d = await dashboard();
    const from = d.fees.by_day[0]!.date;
    const summary = json<CollectionSummary>(
      await get(admin, `/api/bursary/collections/?${qs({ session_id: sessionId, term: '1st', from, to: TODAY })}`),
    );
    expect({ expected: d.fees.expected, collected: d.fees.collected, outstanding: d.fees.outstanding }).toEqual({
      expected: summary.totals.expected,
      collected: summary.totals.collected,
      outstanding: summary.totals.outstanding,
    });
    const levelSum = (k: 'expected' | 'collected') => d.fees.by_level.reduce((s, l) => s + l[k], 0);
    expect(levelSum('expected')).toBeCloseTo(summary.totals.expected, 2);
    expect(levelSum('collected')).toBeCloseTo(summary.totals.collected, 2);
    expect(d.fees.by_day).toHaveLength(30);
    expect(d.fees.by_day.at(-1)!.date).toBe(TODAY);
    expect(d.fees.by_day.filter((x) => x.amount > 0).map((x) => [x.date, x.amount])).toEqual(
      summary.by_day.map((x) => [x.date.slice(0, 10), x.amount]),
    );
    const debtors = json<DebtorsPage>(await get(admin, `/api/bursary/debtors/?${qs({ session_id: sessionId, term: '1st' })}`));
    expect(d.fees.debtors).toEqual({ count: debtors.total, total: debtors.total_balance });
    // 3 + 2 JSS 1 students owe 10,000 each for the 1st term (SSS 1 has no items); 14,000 paid.
    expect(d.fees).toMatchObject({ expected: 50_000, collected: 14_000, debtors: { count: 4, total: 36_000 } });
  });

  it('grades: the released arms’ results, counted per subject and grade', async () => {
    const d = await dashboard();
    expect(d.grades.term).toBe('1st');
    const rows = json<{ subject: string; grade: string }[]>(
      await get(admin, `/api/results/?${qs({ session_id: sessionId, term: '1st', student_class: 'JSS 1A' })}`),
    );
    const counted: Record<string, Record<string, number>> = {};
    for (const r of rows) {
      counted[r.subject] ??= Object.fromEntries(d.grades.grades.map((g) => [g, 0]));
      counted[r.subject]![r.grade] = (counted[r.subject]![r.grade] ?? 0) + 1;
    }
    expect(Object.fromEntries(d.grades.subjects.map((s) => [s.subject, s.counts]))).toEqual(counted);
  });

  it('accounts: the new-sign-ins and sign-in-blocks screens’ counts', async () => {
    const d = await dashboard();
    const day = json<{ accounts: unknown[] }>(await get(admin, '/api/people/new-accounts/'));
    const blocks = json<{ email: string }[]>(await get(admin, '/api/sign-in-blocks/'));
    expect(d.accounts).toEqual({ new_today: day.accounts.length, blocked: new Set(blocks.map((b) => b.email)).size });
  });

  it('runs the same number of statements for a school twice the size', async () => {
    const me = { id: admin.userId, role: 'admin' as const, email: admin.email, mustChangePassword: false, familyId: '', capable: true };
    const count = () =>
      countStatements(ctx, dialect, (conn) => servicesOver(ctx, conn, { now: clock.now }).adminDashboard.dashboard(me, {}));
    const before = await count();
    const more = await arm('JSS 2A', 6);
    await register('JSS 2A', more, 4);
    await scores('JSS 2A', more, 'Mathematics', 5);
    await createFeeItems(db(), [{ arm: 'JSS 2A', sessionId, term: '1st', name: 'Tuition', amountKobo: 1_000_000 }]);
    await recordPayment(ctx, admin, {
      admission_number: more[0]!.admissionNumber,
      session_id: sessionId,
      amount: 500,
      bank_reference: 'DASH-3',
      paid_on: '2025-10-16',
    });
    expect(await count()).toBe(before);
    // The fee reports' fixed count (their shared reads once, then each report's own: fee-reports.test.ts)
    // and the dashboard's own: today's term, attendance, score entry, approvals, grades, accounts.
    expect(before).toBeLessThanOrEqual(64);
  });
});
