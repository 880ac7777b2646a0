import { describe, expect, it } from 'vitest';
import { PARENT_MESSAGES, SUBJECTS, type ParentHomeChild } from '@portal/domain';
import { createFeeItems, createResults, createStudent } from '../../db/factories';
import { nowIso } from '../../db/index';
import '../calendar/calendar.tables';
import '../payments/payments.tables';
import { describeEachDatabase, servicesOver, TEST_PASSWORD, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { lagosDay } from '../../../test/payments-fixtures';
import { family, signInParent, type SignedInParent } from '../../../test/parents-fixtures';
import { countStatements } from '../../../test/statement-count';

describeEachDatabase('family access: the parent home, a child’s screens, paying for a child', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number;
  let parent: SignedInParent;
  let kids: { admissionNumber: string; id: number; userId: number }[];
  let stranger: { admissionNumber: string; id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    // The current term holds today; fees set for it; two children in JSS 1A, one in JSS 2A.
    await ctx.handle.db
      .insertInto('school_terms')
      .values({
        session_id: sessionId,
        term: '1st',
        starts_on: lagosDay(-30),
        ends_on: lagosDay(30),
        next_term_begins: null,
        times_opened: null,
        updated_by: null,
        updated_at: nowIso(),
      })
      .execute();
    const fam = await family(ctx, admin, {
      name: 'Funmi Adeyemi',
      children: [{ firstName: 'Tolu' }, { firstName: 'Bisi' }, { firstName: 'Kunle', arm: 'JSS 2A' }],
    });
    kids = fam.children;
    const s2 = await createStudent(ctx.handle.db, {
      email: 'stranger@test.school',
      password: TEST_PASSWORD,
      firstName: 'Other',
      lastName: 'Family',
      arm: 'JSS 1A',
    });
    stranger = { admissionNumber: s2.admissionNumber, id: s2.id };
    await createFeeItems(ctx.handle.db, [
      { arm: 'JSS 1A', sessionId, term: '1st', name: 'Tuition', amountKobo: 2_000_000 },
      { arm: 'JSS 2A', sessionId, term: '1st', name: 'Tuition', amountKobo: 2_500_000 },
    ]);
    // 1st term released for JSS 1A (Tolu 70, Bisi 60, the stranger 80); 2nd term scores exist but are not released.
    await createResults(ctx.handle.db, [
      ...[
        [kids[0]!.id, 70],
        [kids[1]!.id, 60],
        [stranger.id, 80],
      ].flatMap(([id, score]) =>
        SUBJECTS.slice(0, 2).map((subject) => ({
          studentId: id!,
          sessionId,
          term: '1st' as const,
          arm: 'JSS 1A' as const,
          subject,
          score: score!,
        })),
      ),
      { studentId: kids[0]!.id, sessionId, term: '2nd', arm: 'JSS 1A', subject: SUBJECTS[0], score: 99 },
    ]);
    await ctx.handle.db
      .insertInto('result_publications')
      .values({ session_id: sessionId, term: '1st', student_class: 'JSS 1A', published_by: admin.userId, published_at: nowIso() })
      .execute();
    parent = await signInParent(ctx, admin, fam.phone);
  });

  const get = (url: string, who: SignedIn = parent) => ctx.app.inject({ method: 'GET', url, headers: who.auth });

  it('the home lists each child with the latest released card, this term’s attendance and fees', async () => {
    const res = await get('/api/parent/children/');
    expect(res.statusCode, res.body).toBe(200);
    const children = res.json<{ children: ParentHomeChild[] }>().children;
    expect(children.map((c) => c.first_name)).toEqual(['Tolu', 'Bisi', 'Kunle']);
    const [tolu, bisi, kunle] = children as [ParentHomeChild, ParentHomeChild, ParentHomeChild];
    // The released 1st term, never the unreleased 2nd; positions among the arm (the stranger first).
    expect(tolu.latest_card).toEqual({ session_id: sessionId, session: '2025/2026', term: '1st', average: 70, position: 2, out_of: 3 });
    expect(bisi.latest_card).toMatchObject({ term: '1st', position: 3, out_of: 3 });
    expect(kunle.latest_card).toBeNull();
    expect(tolu.fees).toEqual({ session_id: sessionId, term: '1st', due_kobo: 2_000_000, paid_kobo: 0, outstanding_kobo: 2_000_000 });
    expect(kunle.fees).toMatchObject({ due_kobo: 2_500_000 });
    expect(tolu.attendance).toMatchObject({ session_id: sessionId, term: '1st', present: 0, absent: 0, late: 0, school_days: 0 });
    expect(['unmarked', 'no_school']).toContain(tolu.attendance!.today);
    expect(res.body).not.toContain(stranger.admissionNumber);
  });

  it('the fee gate withholds the latest card on the home as on the card: named, no average or position (decision 042)', async () => {
    const current = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<Record<string, unknown>>();
    const put = (on: boolean) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/settings/',
        headers: admin.auth,
        payload: { ...current, results_fee_gate: on, results_fee_gate_percent: 100 },
      });
    expect((await put(true)).statusCode).toBe(200);
    try {
      const res = await get('/api/parent/children/');
      expect(res.statusCode, res.body).toBe(200);
      const tolu = res.json<{ children: ParentHomeChild[] }>().children[0]!;
      // Nothing paid of ₦20,000: the card is named, its figures are not sent.
      expect(tolu.latest_card).toEqual({
        session_id: sessionId,
        session: '2025/2026',
        term: '1st',
        average: null,
        position: null,
        out_of: null,
      });
      expect(res.body).not.toContain('"average":70');
    } finally {
      expect((await put(false)).statusCode).toBe(200);
    }
  });

  it('the home costs the same number of statements for one child and for three (no per-child loops)', async () => {
    const counts: number[] = [];
    for (const n of [1, 3]) {
      const user = n === 3 ? parent.userId : await oneChildParent();
      counts.push(await countStatements(ctx, dialect, (conn) => servicesOver(ctx, conn).family.children({ id: user, role: 'parent' })));
    }
    expect(counts[0]).toBeGreaterThan(3);
    expect(counts[1]).toBe(counts[0]);
  });
  async function oneChildParent(): Promise<number> {
    const f = await family(ctx, admin, { children: [{ firstName: 'Solo' }] });
    // Like the others: a score on the released term, so the same reads run.
    await createResults(ctx.handle.db, [
      { studentId: f.children[0]!.id, sessionId, term: '1st', arm: 'JSS 1A', subject: SUBJECTS[0], score: 50 },
    ]);
    const p = await ctx.handle.db.selectFrom('parents').select('user_id').where('id', '=', f.parentId).executeTakeFirstOrThrow();
    return p.user_id;
  }

  describe("a child's screens", () => {
    it('the released card and its PDF; the unreleased term is refused as it is to the child', async () => {
      const q = (term: string, n = kids[0]!.admissionNumber) => `admission_number=${n}&session_id=${sessionId}&term=${term}`;
      const card = await get(`/api/report-card/?${q('1st')}`);
      expect(card.statusCode, card.body).toBe(200);
      expect(card.json()).toMatchObject({ student: { admission_number: kids[0]!.admissionNumber } });
      const pdf = await get(`/api/report-card/pdf/?${q('1st')}`);
      expect(pdf.statusCode).toBe(200);
      const unreleased = await get(`/api/report-card/?${q('2nd')}`);
      const child = await ctx.app.inject({
        method: 'POST',
        url: '/api/student/login/',
        payload: { email: kids[0]!.admissionNumber, password: TEST_PASSWORD },
      });
      const asChild = await ctx.app.inject({
        method: 'GET',
        url: `/api/report-card/?${q('2nd')}`,
        headers: { authorization: `Bearer ${child.json().data.access}` },
      });
      expect(unreleased.statusCode).toBe(asChild.statusCode);
      expect(unreleased.statusCode).toBeGreaterThanOrEqual(400);
      const results = await get(`/api/results/?admission_number=${kids[0]!.admissionNumber}`);
      expect(results.statusCode).toBe(200);
      expect(results.json<{ term: string }[]>().every((r) => r.term === '1st')).toBe(true);
    });

    it('a sibling is reached; another family’s child, a made-up number and no number are refused', async () => {
      expect((await get(`/api/attendance/student/?admission_number=${kids[1]!.admissionNumber}`)).statusCode).toBe(200);
      for (const n of [stranger.admissionNumber, 'STU-9999']) {
        const res = await get(`/api/bursary/statement/?admission_number=${n}`);
        expect(res.statusCode, n).toBe(403);
        expect(res.json()).toEqual({ detail: PARENT_MESSAGES.notYourChild });
      }
      const none = await get('/api/payments/context/');
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ admission_number: [PARENT_MESSAGES.childRequired] });
    });

    it('a parent pays for a child exactly once: the same Idempotency-Key replays, the payer recorded is the parent', async () => {
      const payload = {
        admission_number: kids[1]!.admissionNumber,
        full_name: 'Bisi Okafor',
        current_class: 'JSS 1A',
        current_session: '2025/2026',
        email: 'funmi@example.com',
        phone_number: '08031234567',
        amount: '20000',
        term: '1st',
      };
      const headers = { ...parent.auth, 'idempotency-key': 'parent-pay-1' };
      const [a, b] = [
        await ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', headers, payload }),
        await ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', headers, payload }),
      ];
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(b.json()).toEqual(a.json());
      const { reference, authorization_url } = a.json<{ data: { reference: string; authorization_url: string } }>().data;
      const rows = await ctx.handle.db
        .selectFrom('payments')
        .select(['reference', 'initiated_by', 'student_id'])
        .where('student_id', '=', kids[1]!.id)
        .execute();
      expect(rows).toEqual([{ reference, initiated_by: parent.userId, student_id: kids[1]!.id }]);
      const code = new URL(authorization_url).pathname.split('/').pop();
      const paid = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/simulator/${code}/`,
        headers: parent.auth,
        payload: { outcome: 'pay' },
      });
      expect(paid.statusCode, paid.body).toBe(200);
      const verified = await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: parent.auth, payload: { reference } });
      expect(verified.json()).toMatchObject({ status: 'success' });
      expect(
        (await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: parent.auth, payload: { reference } })).json(),
      ).toMatchObject({ status: 'success' });
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .select(['actor_user_id'])
        .where('entity', '=', 'payment')
        .where('entity_id', '=', reference)
        .execute();
      expect(audit.length).toBeGreaterThan(0);
      expect(audit[0]!.actor_user_id).toBe(parent.userId);
      expect((await get(`/api/payments/receipt/${reference}/`)).statusCode).toBe(200);
      const history = await get(`/api/payments/history/?admission_number=${kids[1]!.admissionNumber}`);
      expect(history.body).toContain(reference);
      // Paying for another family's child is refused before anything is written.
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/initiate/',
        headers: parent.auth,
        payload: { ...payload, admission_number: stranger.admissionNumber },
      });
      expect(refused.statusCode).toBe(403);
      const home = (await get('/api/parent/children/')).json<{ children: ParentHomeChild[] }>().children[1]!;
      expect(home.fees).toMatchObject({ paid_kobo: 2_000_000, outstanding_kobo: 0 });
    });
  });
});
