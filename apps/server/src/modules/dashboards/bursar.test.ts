import { expect, it } from 'vitest';
import { classLevelOf, sumNaira, type CollectionSummary, type DebtorsPage, type TransferReportPage } from '@portal/domain';
import { AGEING_BANDS, ageingBandOf, type BursarDashboard } from '@portal/domain/dashboard-staff';
import { nowIso, type DB } from '../../db/index';
import { createFeeItems } from '../../db/factories';
import {
  addStudent,
  describeEachDatabase,
  requestsOn,
  servicesOver,
  signInStudent,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { pngDataUrl, recordPayment, signInBursar } from '../../../test/payments-fixtures';
import { testClock } from '../../../test/attendance-fixtures';
import { countStatements } from '../../../test/statement-count';
import '../payments/payments.tables';

const TODAY = '2025-11-20';

describeEachDatabase("the bursar's dashboard", (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, previousSessionId: number, bursar: SignedIn;
  const clock = testClock(TODAY);
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: clock.now }, async (s) => {
    ({ ctx, admin, staff, sessionId, previousSessionId } = s);
    bursar = await signInBursar(ctx, admin);
    await db()
      .insertInto('school_terms')
      .values({ session_id: sessionId, term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19', updated_at: nowIso() })
      .execute();
  });
  const db = (): DB => ctx.handle.db;
  const { get, post } = requestsOn(() => ctx);

  const dashboard = async (who: SignedIn = bursar, query = '') => {
    const res = await get(who, `/api/dashboards/bursar/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BursarDashboard>();
  };

  let armSeq = 0;
  async function arm(level: string): Promise<string> {
    const label = `B${dialect === 'sqlite' ? 'L' : 'P'}${++armSeq}`;
    const name = `${level} ${label}`;
    await db().insertInto('class_arms').values({ level, arm: label, name, created_at: nowIso() }).execute();
    return name;
  }
  /** An arm of `n` students owing ₦100,000 for the 1st term (set on 1 Sep, so due from the term's first day) and ₦20,000 from last session. */
  async function school(level: string, n: number) {
    const cls = await arm(level);
    await createFeeItems(db(), [
      { arm: cls, sessionId, term: '1st', name: 'Tuition', amountKobo: 10_000_000, createdAt: '2025-09-01T08:00:00.000Z' },
      { arm: cls, sessionId, term: '2nd', name: 'Tuition', amountKobo: 10_000_000, createdAt: '2025-09-01T08:00:00.000Z' },
      {
        arm: cls,
        sessionId: previousSessionId,
        term: '1st',
        name: 'Tuition',
        amountKobo: 2_000_000,
        createdAt: '2024-09-01T08:00:00.000Z',
      },
    ]);
    const kids = [];
    for (let i = 0; i < n; i++) {
      const k = await addStudent(ctx, cls, 'Dash', `K${i}`);
      // Admitted long before either session, so last session's fee is theirs (brought forward).
      await db().updateTable('students').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', k.id).execute();
      kids.push(k);
    }
    return { cls, kids };
  }
  let refSeq = 0;
  const pay = (admissionNumber: string, naira: number, over: Record<string, unknown> = {}) =>
    recordPayment(ctx, bursar, {
      admission_number: admissionNumber,
      session_id: sessionId,
      amount: naira,
      bank_reference: `BD-${dialect}-${++refSeq}`,
      paid_on: TODAY,
      ...over,
    });

  it('equals the collection summary, the debtors list and the transfer queue on the same data', async () => {
    const a = await school('JSS 3', 3);
    const b = await school('SSS 1', 2);
    // Paid in full (arrears and the term), part-paid, unpaid; cash and transfer on two days.
    await pay(a.kids[0]!.admissionNumber, 120_000);
    await pay(a.kids[1]!.admissionNumber, 30_000.5, { paid_on: '2025-10-02' });
    await pay(b.kids[0]!.admissionNumber, 15_000, { method: 'cash', bank: '', bank_reference: '' });
    // Two arms without last session's fees, whose term fee the school made due late: 5 Nov (15 days) and 10 Oct (41 days).
    for (const [level, dueOn] of [
      ['SSS 2', '2025-11-05'],
      ['SSS 3', '2025-10-10'],
    ] as const) {
      const cls = await arm(level);
      await createFeeItems(db(), [
        { arm: cls, sessionId, term: '1st', name: 'Tuition', amountKobo: 5_000_000, createdAt: '2025-09-01T08:00:00.000Z' },
      ]);
      await db().updateTable('fee_items').set({ due_on: dueOn }).where('student_class', '=', cls).execute();
      await addStudent(ctx, cls, 'Late', level);
    }
    // A transfer a student reported, waiting for the bursar.
    const pupil = await signInStudent(ctx, { arm: b.cls });
    const reported = await post(pupil, '/api/bursary/transfer-reports/', {
      session_id: sessionId,
      term: '1st',
      amount: 20_000,
      method: 'bank_transfer',
      bank: 'GTBank',
      bank_reference: `TR-${dialect}-${++refSeq}`,
      paid_on: TODAY,
      note: '',
      scan: pngDataUrl(),
    });
    expect(reported.statusCode, reported.body).toBe(201);

    const d = await dashboard();
    expect(d).toMatchObject({ session_id: sessionId, term: '1st', as_of: TODAY, from: '2025-09-15', to: TODAY });

    const qs = new URLSearchParams({ session_id: String(sessionId), term: '1st', from: '2025-09-15', to: TODAY }).toString();
    const summary = (await get(bursar, `/api/bursary/collections/?${qs}`)).json<CollectionSummary>();
    expect(d.collections_by_day).toEqual(summary.by_day);
    expect(d.collections_by_method).toEqual(summary.by_method);
    expect(d.totals).toEqual({
      expected: summary.totals.expected,
      collected: summary.totals.collected,
      outstanding: summary.totals.outstanding,
      brought_forward: summary.totals.brought_forward,
    });
    // Each level is the sum of its classes in the report.
    for (const l of d.by_level) {
      const classes = summary.by_class.filter((c) => classLevelOf(c.student_class) === l.level);
      expect(l).toEqual({
        level: l.level,
        students: classes.reduce((n, c) => n + c.students, 0),
        expected: sumNaira(classes, (c) => c.expected),
        collected: sumNaira(classes, (c) => c.collected),
        outstanding: sumNaira(classes, (c) => c.outstanding),
      });
    }
    expect(sumNaira(d.by_level, (l) => l.expected)).toBe(summary.totals.expected);
    expect(sumNaira(d.by_level, (l) => l.collected)).toBe(summary.totals.collected);

    // Ageing: the debtors list of the term (every page) counted by its days overdue.
    const first = (await get(bursar, `/api/bursary/debtors/?session_id=${sessionId}&term=1st`)).json<DebtorsPage>();
    const rows = [...first.debtors];
    for (let p = 2; p <= first.pages; p++)
      rows.push(...(await get(bursar, `/api/bursary/debtors/?session_id=${sessionId}&term=1st&page=${p}`)).json<DebtorsPage>().debtors);
    expect(d.debtors).toEqual({ count: first.total, total_balance: first.total_balance });
    for (const band of AGEING_BANDS) {
      const inBand = rows.filter((r) => ageingBandOf(r.days_overdue) === band);
      expect(d.debtors_ageing.find((x) => x.band === band)).toMatchObject({
        debtors: inBand.length,
        balance: sumNaira(inBand, (r) => r.balance),
      });
    }
    expect(sumNaira(d.debtors_ageing, (x) => x.balance)).toBe(first.total_balance);
    // The first two arms' debtors (and the pupil who reported a transfer) owe from 15 Sep or earlier (66
    // days and more); the late fees 15 and 41 days.
    expect(d.debtors_ageing.map((x) => [x.band, x.debtors])).toEqual([
      ['0-30', 1],
      ['31-60', 1],
      ['60+', 5],
    ]);
    expect(d.debtors_ageing.find((x) => x.band === '0-30')!.balance).toBe(50_000);
    // Last session's ₦20,000 each, brought forward into the term's figures.
    expect(d.totals.brought_forward).toBe(100_000);
    expect(d.debtors.count).toBe(7);
    expect(d.collections_by_day.map((x) => x.date)).toEqual(['2025-10-02', TODAY]);

    const queue = (await get(bursar, '/api/bursary/transfer-reports/?status=to_confirm')).json<TransferReportPage>();
    expect(d.transfers_waiting.count).toBe(queue.total);
    expect(queue.total).toBe(1);
    expect(d.transfers_waiting.amount).toBe(sumNaira(queue.reports, (r) => r.amount));
  });

  it("is the bursar's and the admin's only: staff without the capability and students are refused", async () => {
    expect((await get(admin, '/api/dashboards/bursar/')).statusCode).toBe(200);
    expect((await get(staff, '/api/dashboards/bursar/')).statusCode).toBe(403);
    const pupil = await signInStudent(ctx, {});
    expect((await get(pupil, '/api/dashboards/bursar/')).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/dashboards/bursar/' })).statusCode).toBe(401);
    expect((await get(bursar, '/api/dashboards/bursar/?session=999999')).statusCode).toBe(400);
    expect((await get(bursar, '/api/dashboards/bursar/?term=4th')).statusCode).toBe(400);
    expect((await get(bursar, '/api/dashboards/bursar/?session=1%3B%20drop')).statusCode).toBe(400);
    // A session by its id or its name, the same answer.
    const byId = await dashboard(bursar, `?session=${previousSessionId}&term=1st`);
    expect(byId).toMatchObject({ session: '2024/2025', term: '1st' });
    expect(await dashboard(bursar, '?session=2024/2025&term=1st')).toEqual(byId);
    expect(await dashboard(bursar, `?session_id=${previousSessionId}&term=1st`)).toEqual(byId);
  });

  it('runs the same number of statements for 2 and for 20 students', async () => {
    const counts: number[] = [];
    for (const n of [2, 20]) {
      const { kids } = await school('JSS 1', n);
      await pay(kids[0]!.admissionNumber, 5_000);
      counts.push(await countStatements(ctx, dialect, (conn) => servicesOver(ctx, conn, { now: clock.now }).bursarDashboard.get({})));
    }
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
  });
});
