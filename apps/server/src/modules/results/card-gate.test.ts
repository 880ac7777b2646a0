import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FEE_GATE_MESSAGES,
  FEES_OUTSTANDING_CODE,
  SUBJECTS,
  feeGateVerdict,
  feesOutstandingBody,
  type CardFeeRelease,
  type SchoolSettings,
} from '@portal/domain';
import { VIEW_COOKIE } from '@portal/domain/auth-constants';
import { createFeeItems, createPayment, createResults } from '../../db/factories';
import { nowIso } from '../../db/index';
import '../calendar/calendar.tables';
import {
  createSession,
  describeEachDatabase,
  login,
  servicesOver,
  signInStaff,
  signInStudent,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { lagosDay } from '../../../test/payments-fixtures';
import { family, signInParent, type SignedInParent } from '../../../test/parents-fixtures';

/** A stand-in for the web build's page renderer: it prints what the card's API answered the page. */
const INDEX = `<!doctype html>
<html>
  <head>
    <script type="module" crossorigin src="/assets/index-e1.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const RENDERER = `
export const serverRenderedPaths = ['/report-card'];
export async function renderPage(url, api) {
  const asked = new URL(url, 'http://x').searchParams;
  const card = await api('/api/report-card/?' + asked.toString());
  const body = await card.json();
  return {
    html: '<p id="card">' + card.status + ':' + (body.code || (body.student && body.student.admission_number) || '') + '</p>',
    stateScript: '<script type="application/json" id="portal-state">{"path":"/report-card"}</script>',
  };
}
`;
const dist = mkdtempSync(path.join(tmpdir(), 'portal-fee-gate-'));
mkdirSync(path.join(dist, 'assets'));
mkdirSync(path.join(dist, 'server-pages'));
writeFileSync(path.join(dist, 'index.html'), INDEX);
writeFileSync(path.join(dist, 'server-pages', 'render-page.js'), RENDERER);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** ₦20,000 tuition for JSS 1A's 1st term (fallen due: the term began 30 days ago), ₦15,000 for the 2nd (not yet). */
const TUITION_1ST = 2_000_000;

describe('the gate rule (domain)', () => {
  it('opens at the percentage of the term’s fees fallen due, rounded up to the kobo; nothing due is open', () => {
    expect(feeGateVerdict({ charged_kobo: 0, paid_kobo: 0 }, 100).open).toBe(true);
    expect(feeGateVerdict({ charged_kobo: 1_000_001, paid_kobo: 500_000 }, 50)).toEqual({
      open: false,
      owed_kobo: 500_001,
      required_kobo: 500_001,
      paid_kobo: 500_000,
    });
    expect(feeGateVerdict({ charged_kobo: 1_000_001, paid_kobo: 500_001 }, 50).open).toBe(true);
    expect(feesOutstandingBody(feeGateVerdict({ charged_kobo: 2_000_000, paid_kobo: 50 }, 100), '1st Term')).toMatchObject({
      code: FEES_OUTSTANDING_CODE,
      owed: 19_999.5,
      required: 20_000,
      paid: 0.5,
    });
  });

  it('property: open exactly when paid ≥ ceil(charged × percent / 100); owed + paid = charged, to the kobo', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 20_000_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        (c, p, pct) => {
          const v = feeGateVerdict({ charged_kobo: c, paid_kobo: p }, pct);
          const paid = Math.min(c, p);
          expect(v.open).toBe(paid * 100 >= c * pct);
          expect(v.owed_kobo + v.paid_kobo).toBe(c);
          expect(Number.isInteger(v.required_kobo)).toBe(true);
          expect(v.required_kobo * 100).toBeGreaterThanOrEqual(c * pct);
          expect((v.required_kobo - 1) * 100).toBeLessThan(c * pct);
        },
      ),
    );
  });
});

describeEachDatabase('results gated by fees: every way to a card', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number;
  let bursar: SignedIn;
  let parent: SignedInParent;
  let child: { admissionNumber: string; id: number; userId: number };
  let payRef = 0;

  withSchool(dialect, { sessions: ['2025/2026'], overrides: { webDist: dist } }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    await ctx.handle.db
      .insertInto('school_terms')
      .values([
        {
          session_id: sessionId,
          term: '1st',
          starts_on: lagosDay(-30),
          ends_on: lagosDay(30),
          next_term_begins: null,
          times_opened: null,
          updated_by: null,
          updated_at: nowIso(),
        },
        {
          session_id: sessionId,
          term: '2nd',
          starts_on: lagosDay(60),
          ends_on: lagosDay(120),
          next_term_begins: null,
          times_opened: null,
          updated_by: null,
          updated_at: nowIso(),
        },
      ])
      .execute();
    await createFeeItems(ctx.handle.db, [
      { arm: 'JSS 1A', sessionId, term: '1st', name: 'Tuition', amountKobo: TUITION_1ST },
      { arm: 'JSS 1A', sessionId, term: '2nd', name: 'Tuition', amountKobo: 1_500_000 },
    ]);
    await ctx.handle.db
      .insertInto('result_publications')
      .values({ session_id: sessionId, term: '1st', student_class: 'JSS 1A', published_by: admin.userId, published_at: nowIso() })
      .execute();
    const fam = await family(ctx, admin, { children: [{ firstName: 'Tolu' }] });
    child = fam.children[0]!;
    await scores(child.id);
    parent = await signInParent(ctx, admin, fam.phone);
    bursar = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
    const granted = await ctx.app.inject({
      method: 'PUT',
      url: `/api/staff-capabilities/${(bursar as SignedIn & { staffId: string }).staffId}/`,
      headers: admin.auth,
      payload: { capabilities: ['bursar'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  async function scores(studentId: number) {
    await createResults(
      ctx.handle.db,
      SUBJECTS.slice(0, 2).map((subject) => ({ studentId, sessionId, term: '1st' as const, arm: 'JSS 1A' as const, subject, score: 65 })),
    );
  }
  /** A student of JSS 1A with released 1st-term scores, signed in. */
  async function pupil() {
    const s = await signInStudent(ctx, { arm: 'JSS 1A' });
    await scores(s.id);
    return s;
  }
  async function setGate(on: boolean, percent = 100) {
    const current = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<SchoolSettings>();
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings/',
      headers: admin.auth,
      payload: { ...current, results_fee_gate: on, results_fee_gate_percent: percent },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  /** A confirmed payment of the student's fees in the session (as the bursar's or the gateway's would be). */
  async function paid(s: { id: number; admissionNumber: string }, kobo: number) {
    await createPayment(ctx.handle.db, {
      reference: `GATE-${s.id}-${(payRef += 1)}`,
      studentId: s.id,
      admissionNumber: s.admissionNumber,
      arm: 'JSS 1A',
      session: '2025/2026',
      amountKobo: kobo,
      status: 'successful',
    });
  }
  const q = (n: string, term = '1st') => `admission_number=${n}&session_id=${sessionId}&term=${term}`;
  const get = (url: string, who: { auth: Record<string, string> }, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers: { ...who.auth, ...headers } });
  const cookieFor = async (email: string) => {
    const res = await login(ctx.app, 'student', email);
    return [res.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith(`${VIEW_COOKIE}=`))!
      .split(';')[0]!;
  };

  /**
   * Every way to a card, as `who` asks for the card of `n`: the answer's status and, for a refusal,
   * its body. The server-rendered page answers 200 with what the card's API told the renderer.
   */
  type Way = { name: string; ask: (who: SignedIn, n: string) => Promise<{ status: number; body: string }> };
  const WAYS: Way[] = [
    {
      name: 'GET /api/report-card/',
      ask: async (who, n) => {
        const r = await get(`/api/report-card/?${q(n)}`, who);
        return { status: r.statusCode, body: r.body };
      },
    },
    {
      name: 'GET /api/report-card/pdf/',
      ask: async (who, n) => {
        const r = await get(`/api/report-card/pdf/?${q(n)}`, who);
        return { status: r.statusCode, body: r.statusCode === 200 ? '%PDF' : r.body };
      },
    },
    {
      name: 'the server-rendered card page /report-card',
      ask: async (who, n) => {
        if (!who.email) return { status: 0, body: '' };
        const r = await ctx.app.inject({ method: 'GET', url: `/report-card?${q(n)}`, headers: { cookie: await cookieFor(who.email) } });
        const shown = /<p id="card">(\d+):([^<]*)<\/p>/.exec(r.body);
        return { status: Number(shown?.[1] ?? 0), body: shown ? JSON.stringify({ code: shown[2] }) : r.body };
      },
    },
    {
      name: 'GET /api/report-cards/pdf/ (a class PDF)',
      ask: async (who) => {
        const r = await get(`/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=JSS%201A`, who);
        return { status: r.statusCode, body: r.statusCode === 200 ? '%PDF' : r.body };
      },
    },
    {
      name: 'the PIN check (CardGate.assertMaySee)',
      ask: async (who, n) => {
        const s = await ctx.handle.db
          .selectFrom('students')
          .select(['id', 'student_class'])
          .where('admission_number', '=', n)
          .executeTakeFirstOrThrow();
        const role = who === admin ? 'admin' : who === staff ? 'staff' : 'student';
        try {
          await servicesOver(ctx).cardGate.assertMaySee({ student: s, session: sessionId, term: '1st', role });
          return { status: 200, body: '' };
        } catch (err) {
          const e = err as { statusCode: number; body: unknown };
          return { status: e.statusCode, body: JSON.stringify(e.body) };
        }
      },
    },
  ];

  it('off by default: a student with nothing paid sees the card on every way to it', async () => {
    const s = await pupil();
    const settings = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<SchoolSettings>();
    expect(settings).toMatchObject({ results_fee_gate: false, results_fee_gate_percent: 100 });
    for (const way of WAYS.filter((w) => !w.name.includes('class PDF'))) {
      expect((await way.ask(s, s.admissionNumber)).status, way.name).toBe(200);
    }
  });

  describe('with the gate on', () => {
    it('refuses a student who owes the term’s fees on every way to the card, with what is owed; paying opens every way at once', async () => {
      await setGate(true);
      const s = await pupil();
      for (const way of WAYS) {
        const a = await way.ask(s, s.admissionNumber);
        expect(a.status, way.name).toBe(403);
        // The class PDF is staff's: a student is refused by role before any card is built.
        if (way.name.includes('class PDF')) continue;
        expect(a.body, way.name).toContain(FEES_OUTSTANDING_CODE);
      }
      const card = await get(`/api/report-card/?${q(s.admissionNumber)}`, s);
      expect(card.json()).toEqual({
        detail: FEE_GATE_MESSAGES.outstanding({ owed: 20_000, required: 20_000, paid: 0, termLabel: 'First Term' }),
        code: FEES_OUTSTANDING_CODE,
        owed: 20_000,
        required: 20_000,
        paid: 0,
      });
      expect(card.body).not.toContain(SUBJECTS[0]);
      // The 2nd term's fees have not fallen due and do not count; paying the 1st term's opens it, no cache in the way.
      await paid(s, TUITION_1ST);
      for (const way of WAYS) {
        const a = await way.ask(s, s.admissionNumber);
        expect(a.status, way.name).toBe(way.name.includes('class PDF') ? 403 : 200);
      }
    });

    it('a real online payment (checkout, verify) opens the card in the same breath', async () => {
      await setGate(true);
      const s = await pupil();
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(403);
      const started = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/initiate/',
        headers: s.auth,
        payload: {
          admission_number: s.admissionNumber,
          full_name: 'Ada Eze',
          email: 'parent@example.com',
          current_class: 'JSS 1A',
          current_session: '2025/2026',
          amount: 20_000,
        },
      });
      expect(started.statusCode, started.body).toBe(200);
      const { authorization_url, reference } = started.json<{ data: { authorization_url: string; reference: string } }>().data;
      const code = new URL(authorization_url).pathname.split('/').pop();
      const done = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/simulator/${code}/`,
        headers: s.auth,
        payload: { outcome: 'pay' },
      });
      expect(done.statusCode, done.body).toBe(200);
      const verified = await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: s.auth, payload: { reference } });
      expect(verified.json().status).toBe('success');
      const card = await get(`/api/report-card/?${q(s.admissionNumber)}`, s);
      expect(card.statusCode, card.body).toBe(200);
      expect(card.json()).toMatchObject({ student: { admission_number: s.admissionNumber } });
    });

    it('a parent is gated as the child is, on the card and its PDF, and sees it once the child’s fees are paid', async () => {
      await setGate(true);
      const card = await get(`/api/report-card/?${q(child.admissionNumber)}`, parent);
      expect(card.statusCode).toBe(403);
      expect(card.json()).toMatchObject({ code: FEES_OUTSTANDING_CODE, owed: 20_000, required: 20_000, paid: 0 });
      expect((await get(`/api/report-card/pdf/?${q(child.admissionNumber)}`, parent)).statusCode).toBe(403);
      expect((await get(`/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=JSS%201A`, parent)).statusCode).toBe(403);
      await paid({ id: child.id, admissionNumber: child.admissionNumber }, TUITION_1ST);
      expect((await get(`/api/report-card/?${q(child.admissionNumber)}`, parent)).statusCode).toBe(200);
      expect((await get(`/api/report-card/pdf/?${q(child.admissionNumber)}`, parent)).statusCode).toBe(200);
    });

    it('staff and the admin are never gated (the card, its PDF, the class PDF, the PIN check’s rule)', async () => {
      await setGate(true);
      const s = await pupil();
      for (const who of [admin, staff]) {
        for (const way of WAYS.filter((w) => !w.name.includes('server-rendered'))) {
          expect((await way.ask(who, s.admissionNumber)).status, `${way.name} as ${who === admin ? 'admin' : 'staff'}`).toBe(200);
        }
      }
    });

    it('the percentage: at 50% ₦9,999.99 of ₦20,000 keeps the card closed, ₦10,000 opens it', async () => {
      await setGate(true, 50);
      const s = await pupil();
      await paid(s, 999_999);
      const closed = await get(`/api/report-card/?${q(s.admissionNumber)}`, s);
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toMatchObject({ owed: 10_000.01, required: 10_000, paid: 9_999.99 });
      await paid(s, 1);
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(200);
      await setGate(true, 100);
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(403);
    });

    it('money pays the earliest term first: a 2nd-term card stays closed while the 1st term is owed', async () => {
      await setGate(true);
      const s = await pupil();
      // Both terms fall due (the 2nd term's item dated in the past), the 2nd released; ₦15,000 paid.
      await ctx.handle.db
        .updateTable('fee_items')
        .set({ due_on: lagosDay(-1) })
        .where('session_id', '=', sessionId)
        .where('term', '=', '2nd')
        .execute();
      await createResults(ctx.handle.db, [{ studentId: s.id, sessionId, term: '2nd', arm: 'JSS 1A', subject: SUBJECTS[0], score: 70 }]);
      const published = await ctx.handle.db
        .insertInto('result_publications')
        .values({ session_id: sessionId, term: '2nd', student_class: 'JSS 1A', published_by: admin.userId, published_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        await paid(s, 1_500_000);
        const second = await get(`/api/report-card/?${q(s.admissionNumber, '2nd')}`, s);
        expect(second.statusCode, second.body).toBe(403);
        expect(second.json()).toMatchObject({ owed: 15_000, required: 15_000, paid: 0 });
        await paid(s, TUITION_1ST);
        expect((await get(`/api/report-card/?${q(s.admissionNumber, '2nd')}`, s)).statusCode).toBe(200);
      } finally {
        await ctx.handle.db.deleteFrom('result_publications').where('id', '=', published.id).execute();
        await ctx.handle.db
          .updateTable('fee_items')
          .set({ due_on: null })
          .where('session_id', '=', sessionId)
          .where('term', '=', '2nd')
          .execute();
      }
    });

    it('the admin or the bursar opens a card regardless, with a reason (audited, listed); plain staff cannot; once per card', async () => {
      await setGate(true);
      const s = await pupil();
      const t = await pupil();
      const release = (who: SignedIn, body: object) =>
        ctx.app.inject({ method: 'POST', url: '/api/report-card/fee-releases/', headers: who.auth, payload: body });
      const body = (n: string, reason: string) => ({ admission_number: n, session_id: sessionId, term: '1st', reason });
      const noReason = await release(admin, body(s.admissionNumber, '   '));
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: [FEE_GATE_MESSAGES.reasonRequired] });
      expect((await release(admin, body(s.admissionNumber, 'x'.repeat(301)))).json()).toEqual({
        reason: [FEE_GATE_MESSAGES.reasonTooLong],
      });
      expect((await release(staff, body(s.admissionNumber, 'Scholarship'))).statusCode).toBe(403);
      expect((await release(s, body(s.admissionNumber, 'Scholarship'))).statusCode).toBe(403);
      expect((await release(admin, body('STU-9999', 'Scholarship'))).statusCode).toBe(404);
      expect(await ctx.handle.db.selectFrom('card_fee_releases').selectAll().where('student_id', '=', s.id).execute()).toEqual([]);

      const opened = await release(admin, body(s.admissionNumber, 'Scholarship confirmed by the board'));
      expect(opened.statusCode, opened.body).toBe(201);
      expect(opened.json()).toMatchObject({
        admission_number: s.admissionNumber,
        term: '1st',
        reason: 'Scholarship confirmed by the board',
      });
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(200);
      expect((await get(`/api/report-card/pdf/?${q(s.admissionNumber)}`, s)).statusCode).toBe(200);
      // The other student is still gated; the bursar opens theirs.
      expect((await get(`/api/report-card/?${q(t.admissionNumber)}`, t)).statusCode).toBe(403);
      expect((await release(bursar, body(t.admissionNumber, 'Paid at the bank, teller to follow'))).statusCode).toBe(201);
      expect((await get(`/api/report-card/?${q(t.admissionNumber)}`, t)).statusCode).toBe(200);

      const again = await release(bursar, body(s.admissionNumber, 'Again'));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: FEE_GATE_MESSAGES.alreadyReleased });
      const list = await get(`/api/report-card/fee-releases/?session_id=${sessionId}&term=1st`, bursar);
      expect(list.statusCode).toBe(200);
      const rows = list.json<CardFeeRelease[]>().filter((r) => [s.admissionNumber, t.admissionNumber].includes(r.admission_number));
      expect(rows.map((r) => [r.admission_number, r.reason])).toEqual([
        [t.admissionNumber, 'Paid at the bank, teller to follow'],
        [s.admissionNumber, 'Scholarship confirmed by the board'],
      ]);
      expect(rows[0]!.created_by).toBe('Bola Bursar');
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .select(['actor_user_id', 'after'])
        .where('action', '=', 'card_fee_release.create')
        .where('entity_id', '=', String(opened.json<CardFeeRelease>().id))
        .executeTakeFirstOrThrow();
      expect(audit.actor_user_id).toBe(admin.userId);
      expect(JSON.parse(audit.after!)).toMatchObject({ admission_number: s.admissionNumber, reason: 'Scholarship confirmed by the board' });
      expect((await get(`/api/report-card/fee-releases/?session_id=${sessionId}`, staff)).statusCode).toBe(403);
    });

    it('the setting turned off again: no gate', async () => {
      await setGate(true);
      const s = await pupil();
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(403);
      await setGate(false);
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(200);
    });

    it('arrears first (decision 041): a balance brought forward from the previous session is settled before the term opens', async () => {
      await setGate(true);
      const s = await pupil();
      // 2024/2025 (sorted before the current session): ₦10,000 owed, ₦0.01 paid there -> ₦9,999.99 brought forward.
      const past = await createSession(ctx.handle.db, '2024/2025');
      await createFeeItems(ctx.handle.db, [{ arm: 'JSS 1A', sessionId: past.id, term: '1st', name: 'Tuition', amountKobo: 1_000_000 }]);
      await createPayment(ctx.handle.db, {
        reference: `GATE-PAST-${s.id}`,
        studentId: s.id,
        admissionNumber: s.admissionNumber,
        arm: 'JSS 1A',
        session: '2024/2025',
        amountKobo: 1,
        status: 'successful',
      });
      // This term's ₦20,000 paid: the arrears take ₦9,999.99 of it first.
      await paid(s, TUITION_1ST);
      const card = await get(`/api/report-card/?${q(s.admissionNumber)}`, s);
      expect(card.statusCode, card.body).toBe(403);
      expect(card.json()).toMatchObject({ owed: 9_999.99, required: 20_000, paid: 10_000.01 });
      // The statement's terms[] reads the same allocation (its charges count every term, due or not).
      const statement = await get(`/api/bursary/statement/?admission_number=${s.admissionNumber}&session_id=${sessionId}`, admin);
      expect(statement.statusCode, statement.body).toBe(200);
      expect(statement.json<{ brought_forward: number; terms: { term: string; paid: number }[] }>()).toMatchObject({
        brought_forward: 9_999.99,
      });
      expect(statement.json<{ terms: { term: string; paid: number }[] }>().terms.find((t) => t.term === '1st')!.paid).toBe(10_000.01);
      await paid(s, 999_999);
      expect((await get(`/api/report-card/?${q(s.admissionNumber)}`, s)).statusCode).toBe(200);
    });

    it('a bad percentage is refused with the domain’s message, and nothing is saved', async () => {
      const current = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<SchoolSettings>();
      for (const bad of [0, 101, 50.5, '50']) {
        const res = await ctx.app.inject({
          method: 'PUT',
          url: '/api/settings/',
          headers: admin.auth,
          payload: { ...current, results_fee_gate_percent: bad },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ results_fee_gate_percent: [FEE_GATE_MESSAGES.percentRange] });
      }
      expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json()).toEqual(current);
    });
  });
});
