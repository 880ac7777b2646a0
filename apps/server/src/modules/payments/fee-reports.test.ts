import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BURSARY_MESSAGES,
  DEBTORS_PAGE_SIZE,
  FEE_REPORT_MESSAGES,
  PAYMENT_MESSAGES,
  TERM_VALUES,
  discountedDues,
  feeItemKey,
  type ClassReportRow,
  type CollectionSummary,
  type DebtorsPage,
  type LedgerEntry,
  type Statement,
  type Term,
} from '@portal/domain';
import { nowIso, type DB } from '../../db/index';
import {
  addStudent,
  csvLines,
  describeEachDatabase,
  requestsOn,
  signInStudent,
  withSchool,
  servicesOver,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { createFeeItems } from '../../db/factories';
import { recordPayment, signInBursar } from '../../../test/payments-fixtures';
import { countStatements } from '../../../test/statement-count';
import { pdfText } from '../../../test/pdf-text';
import { testClock } from '../../../test/attendance-fixtures';
import { debtorsPdf } from './fee-reports.documents';
import type { FeeReportsService } from './fee-reports.service';
import './payments.tables';

const TODAY = '2025-10-20';
type Kid = { id: number; admissionNumber: string };

describeEachDatabase('debtors and collections', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, bursar: SignedIn;
  const clock = testClock(TODAY);
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: clock.now }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    bursar = await signInBursar(ctx, admin);
    // The 1st term is in the school calendar; the 2nd and 3rd are not (their items' dates stand in).
    await db()
      .insertInto('school_terms')
      .values({ session_id: sessionId, term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19', updated_at: nowIso() })
      .execute();
  });
  const db = (): DB => ctx.handle.db;

  const { get, post } = requestsOn(() => ctx);
  const qs = (o: Record<string, string | number | undefined>) =>
    new URLSearchParams(Object.entries(o).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();

  let armSeq = 0;
  /** An arm of the test's own under a level ("SSS 2 R1"), so no test counts another's students. */
  async function arm(level = 'SSS 2'): Promise<string> {
    const label = `R${dialect === 'sqlite' ? 'L' : 'P'}${++armSeq}`;
    const name = `${level} ${label}`;
    await db().insertInto('class_arms').values({ level, arm: label, name, created_at: nowIso() }).execute();
    return name;
  }
  async function items(
    cls: string,
    list: { term: Term; name: string; kobo: number; compulsory?: boolean; created_at?: string }[],
    sid = sessionId,
  ) {
    await createFeeItems(
      db(),
      list.map((i) => ({
        arm: cls,
        sessionId: sid,
        term: i.term,
        name: i.name,
        amountKobo: i.kobo,
        compulsory: i.compulsory,
        createdAt: i.created_at ?? '2025-09-01T08:00:00.000Z',
      })),
    );
  }
  async function kid(cls: string, first = 'Ada', last = 'Eze'): Promise<Kid> {
    const s = await addStudent(ctx, cls, first, last);
    return { id: s.id, admissionNumber: s.admissionNumber };
  }
  let refSeq = 0;
  const pay = (k: Kid, naira: number, over: Record<string, unknown> = {}): Promise<LedgerEntry> =>
    recordPayment(ctx, bursar, {
      admission_number: k.admissionNumber,
      session_id: sessionId,
      amount: naira,
      bank_reference: `FR-${dialect}-${++refSeq}`,
      paid_on: TODAY,
      ...over,
    });
  async function reverse(e: LedgerEntry): Promise<void> {
    const res = await post(bursar, `/api/bursary/payments/${e.reference}/reverse/`, { reason: 'Entered in error' });
    expect(res.statusCode, res.body).toBe(201);
  }
  async function discount(
    k: Kid,
    d: { term: Term | null; basis: 'percent' | 'fixed'; percent_bp?: number; amount_kobo?: number; items?: string[] },
  ) {
    await db()
      .insertInto('fee_discounts')
      .values({
        student_id: k.id,
        session_id: sessionId,
        term: d.term,
        kind: 'sibling',
        basis: d.basis,
        percent_bp: d.percent_bp ?? 0,
        amount_kobo: d.amount_kobo ?? 0,
        items: JSON.stringify(d.items ?? []),
        reason: 'Test',
        given_by: admin.userId,
        given_at: nowIso(),
        revoked_at: null,
        revoked_by: null,
      })
      .execute();
  }
  const debtors = async (q: Record<string, string | number | undefined>, who: SignedIn = bursar) => {
    const res = await get(who, `/api/bursary/debtors/?${qs({ session_id: sessionId, ...q })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DebtorsPage>();
  };

  describe('the debtors list', () => {
    it('lists who owes (discounts applied), with days overdue from the owed term start and the last day paid', async () => {
      const cls = await arm();
      // 1st term ₦100,000 (tuition 90,000 + PTA 10,000), 2nd term ₦50,000 set on 3 Jan; a bus fee not owed.
      await items(cls, [
        { term: '1st', name: 'Tuition', kobo: 9_000_000 },
        { term: '1st', name: 'PTA levy', kobo: 1_000_000 },
        { term: '1st', name: 'Bus', kobo: 700_000, compulsory: false },
        { term: '2nd', name: 'Tuition', kobo: 5_000_000, created_at: '2025-10-01T08:00:00.000Z' },
      ]);
      const owes = await kid(cls, 'Chidi', 'Okeke');
      const paidUp = await kid(cls, 'Funke', 'Adeyemi');
      const part = await kid(cls, 'Emeka', 'Nwosu');
      const discounted = await kid(cls, 'Ngozi', 'Obi');
      await pay(paidUp, 150_000);
      await pay(part, 30_000, { paid_on: '2025-10-02' });
      const last = await pay(part, 80_000, { paid_on: '2025-10-10' });
      await reverse(last);
      await pay(part, 20_000, { paid_on: '2025-10-05' });
      await discount(discounted, { term: null, basis: 'percent', percent_bp: 5000, items: ['Tuition'] }); // 45,000 + 25,000 off

      const page = await debtors({ student_class: cls, term: 'session' });
      expect(page).toMatchObject({ session_id: sessionId, session: '2025/2026', term: null, page: 1, pages: 1, total: 3 });
      const row = (k: Kid) => page.debtors.find((d) => d.admission_number === k.admissionNumber);
      expect(row(paidUp)).toBeUndefined();
      expect(row(owes)).toEqual({
        admission_number: owes.admissionNumber,
        full_name: 'Chidi Okeke',
        student_class: cls,
        due: 150_000,
        discount: 0,
        paid: 0,
        balance: 150_000,
        status: 'unpaid',
        days_overdue: 35, // 15 Sep → 20 Oct
        last_paid_on: null,
        brought_forward: 0,
      });
      // The reversed payment of 10 Oct was never money received: the last day paid is 5 Oct.
      expect(row(part)).toMatchObject({
        due: 150_000,
        paid: 50_000,
        balance: 100_000,
        status: 'part_paid',
        days_overdue: 35,
        last_paid_on: '2025-10-05',
      });
      expect(row(discounted)).toMatchObject({ due: 80_000, discount: 70_000, balance: 80_000 });
      expect(page.total_balance).toBe(330_000);
      // Sorted by balance, largest first, by default.
      expect(page.debtors.map((d) => d.balance)).toEqual([150_000, 100_000, 80_000]);

      // Without a term the list opens on the current term (the 1st: today is in it), counting what has fallen due up to it.
      const first = await debtors({ student_class: cls });
      expect(first).toMatchObject({ term: '1st', term_begins: '2025-09-15', as_of: TODAY });
      expect(first.debtors.map((d) => [d.admission_number, d.due, d.discount, d.paid, d.balance, d.days_overdue])).toEqual([
        [owes.admissionNumber, 100_000, 0, 0, 100_000, 35],
        [discounted.admissionNumber, 55_000, 45_000, 0, 55_000, 35],
        [part.admissionNumber, 100_000, 0, 50_000, 50_000, 35],
      ]);
      // Someone who paid the 1st term in full owes only the 2nd: overdue from the day its fees fell due
      // (the calendar has no 2nd term, so the day they were set, 1 Oct, stands in).
      await pay(part, 50_000);
      expect(
        (await debtors({ student_class: cls, term: 'session' })).debtors.find((d) => d.admission_number === part.admissionNumber),
      ).toMatchObject({ balance: 50_000, days_overdue: 19 });
      expect((await debtors({ student_class: cls })).debtors.map((d) => d.admission_number)).not.toContain(part.admissionNumber);
      // A fee that has not fallen due is not owed, in any view.
      await items(cls, [{ term: '3rd', name: 'Tuition', kobo: 100_000, created_at: '2026-04-20T08:00:00.000Z' }]);
      for (const term of ['3rd', 'session'])
        expect(
          (await debtors({ student_class: cls, term })).debtors.find((d) => d.admission_number === owes.admissionNumber),
        ).toMatchObject({ due: 150_000, balance: 150_000 });
      // Withdrawn students leave the list.
      await db().updateTable('students').set({ status: 'withdrawn' }).where('id', '=', owes.id).execute();
      expect((await debtors({ student_class: cls, term: 'session' })).debtors.map((d) => d.admission_number)).not.toContain(
        owes.admissionNumber,
      );
    });

    it('filters by level (every arm) or by one arm; sorts by each column both ways, ties by admission number; pages', async () => {
      const a = await arm('JSS 3');
      const b = await arm('JSS 3');
      await items(a, [{ term: '1st', name: 'Tuition', kobo: 1_000_000 }]);
      await items(b, [{ term: '1st', name: 'Tuition', kobo: 2_000_000 }]);
      const ka = [await kid(a, 'Zainab', 'Bello'), await kid(a, 'Ade', 'Ola')];
      const kb = [await kid(b, 'Musa', 'Ali')];
      await pay(ka[0]!, 5_000);
      const level = await debtors({ level: 'JSS 3', sort: 'name', order: 'asc' });
      const mine = level.debtors.filter((d) => d.student_class === a || d.student_class === b);
      expect(mine.map((d) => d.full_name)).toEqual(['Ade Ola', 'Musa Ali', 'Zainab Bello']);
      expect(level.debtors.every((d) => d.student_class.startsWith('JSS 3'))).toBe(true);
      expect((await debtors({ student_class: b })).debtors.map((d) => d.admission_number)).toEqual([kb[0]!.admissionNumber]);
      const byBalanceAsc = (await debtors({ level: 'JSS 3', sort: 'balance', order: 'asc' })).debtors.filter((d) =>
        [a, b].includes(d.student_class),
      );
      expect(byBalanceAsc.map((d) => d.balance)).toEqual([5_000, 10_000, 20_000]);
      const byClassDesc = (await debtors({ level: 'JSS 3', sort: 'class', order: 'desc' })).debtors.filter((d) =>
        [a, b].includes(d.student_class),
      );
      // Same class: admission number ascending.
      expect(byClassDesc.map((d) => d.admission_number)).toEqual([kb[0]!.admissionNumber, ka[0]!.admissionNumber, ka[1]!.admissionNumber]);

      // Pages of DEBTORS_PAGE_SIZE; the total balance counts every page.
      const big = await arm('SSS 1');
      await items(big, [{ term: '1st', name: 'Tuition', kobo: 100_000 }]);
      for (let i = 0; i < DEBTORS_PAGE_SIZE + 3; i++) await addStudent(ctx, big, 'Page', `Kid${String(i).padStart(3, '0')}`);
      const p1 = await debtors({ student_class: big, sort: 'name', order: 'asc' });
      const p2 = await debtors({ student_class: big, sort: 'name', order: 'asc', page: 2 });
      expect([p1.total, p1.pages, p1.debtors.length, p2.debtors.length]).toEqual([DEBTORS_PAGE_SIZE + 3, 2, DEBTORS_PAGE_SIZE, 3]);
      expect(p1.total_balance).toBe((DEBTORS_PAGE_SIZE + 3) * 1_000);
      expect(p2.total_balance).toBe(p1.total_balance);
      expect(p2.debtors.at(-1)!.full_name).toBe(`Page Kid${String(DEBTORS_PAGE_SIZE + 2).padStart(3, '0')}`);
      // A page past the end: an empty page, never an error.
      expect((await debtors({ student_class: big, page: 100_000 })).debtors).toEqual([]);
    });

    it('refuses a level or arm the school does not have, an unknown session, and bad sorts with 400s', async () => {
      const bad = async (q: Record<string, string | number>) => {
        const res = await get(bursar, `/api/bursary/debtors/?${qs(q)}`);
        expect(res.statusCode, res.body).toBe(400);
        return res.json<Record<string, string[]>>();
      };
      expect(await bad({ level: 'JSS 7' })).toEqual({ level: [FEE_REPORT_MESSAGES.levelInvalid] });
      expect(await bad({ level: 'JSS 1A' })).toEqual({ level: [FEE_REPORT_MESSAGES.levelInvalid] });
      expect(await bad({ student_class: 'JSS 1Z' })).toEqual({ student_class: [FEE_REPORT_MESSAGES.classInvalid] });
      expect(await bad({ student_class: 'JSS 1A\u0007' })).toEqual({ student_class: [FEE_REPORT_MESSAGES.classInvalid] });
      expect(await bad({ level: 'JSS 1\u202E' })).toEqual({ level: [FEE_REPORT_MESSAGES.levelInvalid] });
      expect(await bad({ session_id: 99_999 })).toEqual({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      expect(Object.keys(await bad({ sort: 'balance desc; drop table students' }))).toEqual(['sort']);
      expect(Object.keys(await bad({ order: "desc'--" }))).toEqual(['order']);
      expect(Object.keys(await bad({ page: 100_001 }))).toEqual(['page']);
      expect(Object.keys(await bad({ page: -1 }))).toEqual(['page']);
      expect(Object.keys(await bad({ student_class: 'x'.repeat(5000) }))).toEqual(['student_class']);
      for (const url of ['/api/bursary/debtors.csv?level=SSS%209', '/api/bursary/debtors.pdf?level=SSS%209']) {
        const res = await get(bursar, url);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ level: [FEE_REPORT_MESSAGES.levelInvalid] });
      }
    });

    it('is the bursar’s and the admin’s: plain staff and students get 403, anonymous 401', async () => {
      const student = await signInStudent(ctx, { arm: 'JSS 1A' });
      for (const url of ['/api/bursary/debtors/', '/api/bursary/debtors.csv', '/api/bursary/debtors.pdf', '/api/bursary/collections/']) {
        const plain = await get(staff, url);
        expect(plain.statusCode, url).toBe(403);
        expect(plain.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
        expect((await get(student, url)).statusCode, url).toBe(403);
        expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
        expect((await get(admin, url)).statusCode).toBe(200);
      }
    });

    it('downloads every row as a formula-safe CSV with the same filters and order, and a totals row', async () => {
      const cls = await arm();
      await items(cls, [{ term: '1st', name: 'Tuition', kobo: 2_000_000 }]);
      const evil = await kid(cls, '=HYPERLINK("http://x")', '+SUM(A1)');
      const plain = await kid(cls, 'Ifeoma', 'Okafor');
      await pay(plain, 5_000, { paid_on: '2025-10-03' });
      const res = await get(
        bursar,
        `/api/bursary/debtors.csv?${qs({ session_id: sessionId, student_class: cls, sort: 'balance', order: 'asc' })}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      // No term named: the current term's list (the 1st), named so.
      expect(res.headers['content-disposition']).toBe(`attachment; filename="debtors-${cls.replace(/ /g, '')}-20252026-1st.csv"`);
      expect(res.headers['cache-control']).toBe('no-store');
      const lines = csvLines(res);
      expect(lines[0]).toBe('admission_number,full_name,class,due,discount,paid,balance,status,days_overdue,last_paid_on,brought_forward');
      expect(lines[1]).toBe(`${plain.admissionNumber},Ifeoma Okafor,${cls},20000.00,0.00,5000.00,15000.00,part_paid,35,2025-10-03,0.00`);
      expect(lines[2]).toBe(
        `${evil.admissionNumber},"'=HYPERLINK(""http://x"") +SUM(A1)",${cls},20000.00,0.00,0.00,20000.00,unpaid,35,,0.00`,
      );
      expect(lines[3]).toBe('Totals,2 debtors,,,,,35000.00,,,,');
      expect(lines).toHaveLength(4);
    });

    it('prints every row on A4 with the school header, the table header on each page and page numbers', async () => {
      const cls = await arm();
      await items(cls, [{ term: '1st', name: 'Tuition', kobo: 1_234_500 }]);
      for (let i = 0; i < 70; i++) await addStudent(ctx, cls, 'Print', `Pupil${String(i).padStart(2, '0')}`);
      const res = await get(bursar, `/api/bursary/debtors.pdf?${qs({ session_id: sessionId, student_class: cls, term: '1st' })}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="debtors-${cls.replace(/ /g, '')}-20252026-1st.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // The same drawing uncompressed, to read its text.
      const svc = service(db());
      const report = await svc.debtorsAll({ session_id: sessionId, student_class: cls, term: '1st', sort: 'name', order: 'asc' });
      const settings = await ctx.app.inject({ method: 'GET', url: '/api/settings/' });
      const text = pdfText(await debtorsPdf(report, settings.json(), { compress: false, now: new Date(`${TODAY}T09:00:00Z`) }));
      expect(text).toContain(settings.json<{ school_name: string }>().school_name);
      expect(text).toContain(`Debtors: ${cls}, 2025/2026, First Term`);
      expect(text).toContain('Print Pupil00');
      expect(text).toContain('Print Pupil69');
      // A4 landscape since the brought-forward column (issue 34): about 30 rows a page.
      expect(text).toContain('Page 1 of 3');
      expect(text).toContain('Page 3 of 3');
      // The table's header row on every page.
      expect(text.split('Adm. no').length - 1).toBe(3);
      expect(text).toContain('₦864,150.00'); // 70 × ₦12,345
    });
  });

  describe('the collection summary', () => {
    it('expected against collected by class and item (discounts applied), money received by day and method net of reversals', async () => {
      const c1 = await arm('SSS 3');
      const c2 = await arm('SSS 3');
      for (const c of [c1, c2])
        await items(c, [
          { term: '1st', name: 'Tuition', kobo: 6_000_000 },
          { term: '1st', name: 'Books', kobo: 1_000_000 },
          { term: '2nd', name: 'Tuition', kobo: 5_000_000 },
        ]);
      const a = await kid(c1);
      const b = await kid(c1);
      const c = await kid(c2);
      await discount(b, { term: '1st', basis: 'fixed', amount_kobo: 1_000_000, items: ['Books'] });
      await pay(a, 65_000, { method: 'cash', bank: '', bank_reference: '', paid_on: '2025-10-06' }); // Tuition 60,000 then Books 5,000
      await pay(b, 130_000, { paid_on: '2025-10-07' }); // everything (110,000 after the discount) and 20,000 of credit
      const wrong = await pay(c, 40_000, { method: 'pos', paid_on: '2025-10-07' });
      await reverse(wrong);

      const before = await get(bursar, `/api/bursary/collections/?${qs({ session_id: sessionId })}`);
      expect(before.statusCode, before.body).toBe(200);
      const s = before.json<CollectionSummary>();
      const mine = (rows: { student_class: string }[]) => rows.filter((r) => r.student_class === c1 || r.student_class === c2);
      expect(mine(s.by_class)).toEqual([
        { student_class: c1, students: 2, expected: 120_000 + 110_000, collected: 65_000 + 110_000, outstanding: 55_000, upcoming: 0 },
        { student_class: c2, students: 1, expected: 120_000, collected: 0, outstanding: 120_000, upcoming: 0 },
      ]);
      expect(s.by_method).toEqual(expect.arrayContaining([{ method: 'cash', count: 1, amount: 65_000 }]));
      expect(s.by_method.find((m) => m.method === 'pos')).toBeUndefined(); // reversed: no money received
      expect(s.by_day).toEqual(
        expect.arrayContaining([
          { date: '2025-10-06', count: 1, amount: 65_000 },
          { date: '2025-10-07', count: 1, amount: 130_000 },
        ]),
      );
      expect(s.totals.credit).toBeGreaterThanOrEqual(20_000);
      expect(s.totals.discounts).toBeGreaterThanOrEqual(10_000);
      // By item sums to the totals; each class's split: a's 65,000 → Tuition 60,000 + Books 5,000.
      const sum = (rows: { collected: number }[]) => rows.reduce((t, r) => t + Math.round(r.collected * 100), 0) / 100;
      expect(sum(s.by_item)).toBe(s.totals.collected);
      expect(sum(s.by_class)).toBe(s.totals.collected);

      // The 1st term: b's discount shows, and b's credit only on their last term with fees (the 2nd).
      const first = (
        await get(bursar, `/api/bursary/collections/?${qs({ session_id: sessionId, term: '1st' })}`)
      ).json<CollectionSummary>();
      expect(first.term).toBe('1st');
      expect(mine(first.by_class)).toEqual([
        { student_class: c1, students: 2, expected: 70_000 + 60_000, collected: 65_000 + 60_000, outstanding: 5_000, upcoming: 0 },
        { student_class: c2, students: 1, expected: 70_000, collected: 0, outstanding: 70_000, upcoming: 0 },
      ]);
      // A date range narrows only the money received.
      const range = (
        await get(bursar, `/api/bursary/collections/?${qs({ session_id: sessionId, from: '2025-10-07', to: '2025-10-07' })}`)
      ).json<CollectionSummary>();
      expect(range.by_day.map((d) => d.date)).toEqual(['2025-10-07']);
      expect(range.by_method.find((m) => m.method === 'cash')).toBeUndefined();
      expect(range.totals).toEqual(s.totals);
    });

    it('refuses a start after the end, and an unknown session', async () => {
      const res = await get(bursar, `/api/bursary/collections/?${qs({ from: '2025-10-08', to: '2025-10-07' })}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ from: [FEE_REPORT_MESSAGES.rangeInvalid] });
      const unknown = await get(bursar, `/api/bursary/collections/?${qs({ session_id: 99_999 })}`);
      expect(unknown.json()).toEqual({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      const notDay = await get(bursar, `/api/bursary/collections/?${qs({ from: '2025-02-30' })}`);
      expect(Object.keys(notDay.json())).toEqual(['from']);
    });
  });

  /** The service over a Kysely that counts the statements it runs. */
  function service(conn: DB) {
    return servicesOver(ctx, conn, { now: clock.now }).feeReports;
  }
  const counting = (run: (svc: FeeReportsService) => Promise<unknown>): Promise<number> =>
    countStatements(ctx, dialect, (conn) => run(service(conn)));

  describe('queries', () => {
    it('the same number of statements for 2 and for 20 students (debtors, CSV rows, collections)', async () => {
      const counts: number[][] = [];
      for (const size of [2, 20]) {
        const cls = await arm('JSS 2');
        await items(cls, [
          { term: '1st', name: 'Tuition', kobo: 1_000_000 },
          { term: '2nd', name: 'Tuition', kobo: 1_000_000 },
        ]);
        const kids = [];
        for (let i = 0; i < size; i++) kids.push(await kid(cls, 'Count', `K${i}`));
        await pay(kids[0]!, 3_000);
        await discount(kids[1]!, { term: null, basis: 'percent', percent_bp: 1000 });
        const q = { session_id: sessionId, student_class: cls, sort: 'balance' as const, order: 'desc' as const };
        counts.push([
          await counting((svc) => svc.debtors({ ...q, page: 1 })),
          await counting((svc) => svc.debtors({ ...q, student_class: undefined, level: 'JSS 2', page: 1 })),
          await counting((svc) => svc.debtorsAll({ ...q, term: '2nd' })),
          await counting((svc) => svc.collections({ session_id: sessionId })),
        ]);
      }
      expect(counts[0]).toEqual(counts[1]);
      // The collection summary's 12: session, whether it is closed (one indexed probe, decision 038), students,
      // items, discounts, payments, item names, money by day and by method, and the due rule's calendar (term
      // dates, the dates the cards announced, the school's time zone); then the balance brought forward's 7
      // (decision 041): the sessions; at once the students' admission days, earlier payments, fees per session
      // and arm, discounted students; the class history's 3 whatever the number of earlier sessions (which
      // are closed, their enrolment rows, today's arms for the live ones).
      expect(Math.max(...counts[1]!)).toBeLessThanOrEqual(20);
    });
  });

  /**
   * "Figures add up": for random charges, discounts, payments and reversals, each debtor's
   * balance equals the statement's charged − discounts − paid and the class report's outstanding, for
   * the session and each term; the collection summary's totals equal the sum over the students.
   */
  describe('property', () => {
    it('debtors = statement = class report, per term and session; collections = the sum over students', async () => {
      const itemArb = fc.record({
        term: fc.constantFrom<Term>(...TERM_VALUES),
        name: fc.constantFrom('Tuition', 'PTA levy', 'Books'),
        kobo: fc.integer({ min: 100, max: 5_000_000 }),
      });
      const discountArb = fc.oneof(
        fc.record({
          term: fc.constantFrom<Term | null>(null, ...TERM_VALUES),
          basis: fc.constant('percent' as const),
          percent_bp: fc.integer({ min: 1, max: 10_000 }),
          items: fc.subarray(['Tuition', 'Books']),
        }),
        fc.record({
          term: fc.constantFrom<Term | null>(null, ...TERM_VALUES),
          basis: fc.constant('fixed' as const),
          amount_kobo: fc.integer({ min: 100, max: 3_000_000 }),
          items: fc.subarray(['Tuition', 'PTA levy']),
        }),
      );
      const studentArb = fc.record({
        discounts: fc.array(discountArb, { maxLength: 2 }),
        payments: fc.array(
          fc.record({
            kobo: fc.integer({ min: 10_000, max: 6_000_000 }),
            reverse: fc.boolean(),
            method: fc.constantFrom('cash', 'bank_transfer'),
          }),
          { maxLength: 3 },
        ),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(itemArb, { minLength: 1, maxLength: 5, selector: (i) => `${i.term}|${i.name}` }),
          fc.array(studentArb, { minLength: 1, maxLength: 4 }),
          async (classItems, plan) => {
            const cls = await arm('SSS 1');
            await items(cls, classItems);
            const kids: (Kid & { paid: number; gross: Partial<Record<Term, number>>; discountKobo: number })[] = [];
            for (const p of plan) {
              const k = await kid(cls, 'Prop', `Kid${kids.length}`);
              for (const d of p.discounts) await discount(k, d);
              let paid = 0;
              for (const pm of p.payments) {
                const e = await pay(k, pm.kobo / 100, pm.method === 'cash' ? { method: 'cash', bank: '', bank_reference: '' } : {});
                if (pm.reverse) await reverse(e);
                else paid += pm.kobo;
              }
              // The model: the class's gross items, the one discount rule, payments net of reversals.
              const rules = p.discounts.map((d, i) => ({
                id: i + 1,
                term: d.term,
                basis: d.basis,
                percent_bp: 'percent_bp' in d ? d.percent_bp : 0,
                amount_kobo: 'amount_kobo' in d ? d.amount_kobo : 0,
                item_keys: d.items.map(feeItemKey),
              }));
              const order = (t: Term) => TERM_VALUES.indexOf(t);
              const dueItems = [...classItems]
                .sort((x, y) => order(x.term) - order(y.term))
                .map((i) => ({ term: i.term, name_key: feeItemKey(i.name), kobo: i.kobo }));
              const gross: Partial<Record<Term, number>> = {};
              for (const i of classItems) gross[i.term] = (gross[i.term] ?? 0) + i.kobo;
              const discountKobo = discountedDues(dueItems, rules).takes.reduce((s, t) => s + t.kobo, 0);
              kids.push({ ...k, paid, gross, discountKobo });
            }
            const page = await debtors({ student_class: cls, term: 'session' });
            const report = (await get(admin, `/api/payments/report/?${qs({ class: cls, session: '2025/2026' })}`)).json<ClassReportRow[]>();
            const grossTotal = Object.values(kids[0]!.gross).reduce((s, v) => s + v, 0);
            for (const k of kids) {
              const st = (
                await get(bursar, `/api/bursary/statement/?${qs({ admission_number: k.admissionNumber, session_id: sessionId })}`)
              ).json<Statement & { discounts?: number }>();
              expect(Math.round(st.charged * 100)).toBe(grossTotal);
              expect(Math.round(st.paid * 100)).toBe(k.paid);
              if (st.discounts !== undefined) expect(Math.round(st.discounts * 100)).toBe(k.discountKobo);
              const owed = Math.max(0, grossTotal - k.discountKobo - k.paid);
              const d = page.debtors.find((x) => x.admission_number === k.admissionNumber);
              expect(d ? Math.round(d.balance * 100) : 0).toBe(owed);
              if (d) expect(Math.round(d.discount * 100)).toBe(k.discountKobo);
              const r = report.find((x) => x.admission_number === k.admissionNumber)!;
              expect(Math.round(r.outstanding * 100)).toBe(owed);
              // A term's view owes what is unpaid of that term and the ones before it: the class report's term balances so far.
              for (const t of r.terms) {
                const termPage = await debtors({ student_class: cls, term: t.term });
                const td = termPage.debtors.find((x) => x.admission_number === k.admissionNumber);
                const upTo = r.terms.filter((x) => TERM_VALUES.indexOf(x.term) <= TERM_VALUES.indexOf(t.term));
                expect(td ? Math.round(td.balance * 100) : 0).toBe(upTo.reduce((sum, x) => sum + Math.round(x.balance * 100), 0));
                if (td) expect(Math.round(td.due * 100)).toBe(upTo.reduce((sum, x) => sum + Math.round(x.amount_due * 100), 0));
              }
            }
            expect(Math.round(page.total_balance * 100)).toBe(
              kids.reduce((s, k) => s + Math.max(0, grossTotal - k.discountKobo - k.paid), 0),
            );
            // The collection summary's row for this class is the sum over its students.
            const sum = (await get(bursar, `/api/bursary/collections/?${qs({ session_id: sessionId })}`)).json<CollectionSummary>();
            const row = sum.by_class.find((c) => c.student_class === cls)!;
            const expected = kids.reduce((s, k) => s + grossTotal - k.discountKobo, 0);
            const collected = kids.reduce((s, k) => s + Math.min(k.paid, grossTotal - k.discountKobo), 0);
            expect([
              row.students,
              Math.round(row.expected * 100),
              Math.round(row.collected * 100),
              Math.round(row.outstanding * 100),
            ]).toEqual([kids.length, expected, collected, expected - collected]);
            // And the whole school's: items, classes and totals agree; collected + credit = the money that stands.
            const k = (n: number) => Math.round(n * 100);
            expect(sum.by_item.reduce((s, i) => s + k(i.collected), 0)).toBe(k(sum.totals.collected));
            expect(sum.by_class.reduce((s, i) => s + k(i.expected), 0)).toBe(k(sum.totals.expected));
            const money = sum.by_method.reduce((s, m) => s + k(m.amount), 0);
            expect(k(sum.totals.collected) + k(sum.totals.credit)).toBe(money);
          },
        ),
        { numRuns: 20 },
      );
    }, 120_000);
  });
});
