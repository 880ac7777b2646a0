import { expect, it } from 'vitest';
import { DUPLICATE_CASH_CODE, DUPLICATE_CASH_MESSAGES, IDEMPOTENCY_MESSAGES, PAYMENT_DATE_MESSAGES, shiftYears } from '@portal/domain';
import { describeEachDatabase, signInStaff, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { lagosDay, pngDataUrl, siblingDiscount, signInBursar, type Student } from '../../../test/payments-fixtures';
import './payments.tables';

const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** A payment date falls between a year before the current session's first term and today. */
describeEachDatabase('payment dates', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, bursar: SignedIn & { staffId: string }, pupil: Student;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    bursar = await signInBursar(ctx, admin);
    pupil = await signInStudent(ctx, { arm: 'JSS 2A' });
  });

  let seq = 0;
  const record = (paid_on: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/payments/',
      headers: bursar.auth,
      payload: {
        admission_number: pupil.admissionNumber,
        session_id: sessionId,
        term: '1st',
        amount: 1000,
        method: 'bank_teller',
        bank: 'First Bank',
        bank_reference: `DATE-${dialect}-${++seq}`,
        paid_on,
      },
    });
  const report = (paid_on: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/transfer-reports/',
      headers: pupil.auth,
      payload: {
        session_id: sessionId,
        term: null,
        amount: 1000,
        method: 'bank_transfer',
        bank: 'GTBank',
        bank_reference: `TRF-${dialect}-${++seq}`,
        paid_on,
        scan: pngDataUrl(),
      },
    });

  it('refuses 1900-01-01 and the future, with clear messages, for the bursar and a reported transfer', async () => {
    const min = shiftYears(lagosDay(), -1);
    for (const send of [record, report]) {
      const old = await send('1900-01-01');
      expect(old.statusCode, old.body).toBe(400);
      expect(old.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.tooEarly(min)] });
      const future = await send(lagosDay(2));
      expect(future.statusCode).toBe(400);
      expect(future.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.future] });
    }
    // The session's first term has no dates yet: a year before today is the earliest day.
    expect((await record(dayBefore(min))).statusCode).toBe(400);
    expect((await record(min)).statusCode).toBe(201);
    expect((await record(lagosDay())).statusCode).toBe(201);
  });

  it("with the first term dated, the earliest day is a year before the term's first day", async () => {
    const starts = lagosDay(-200);
    const terms = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/terms/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', starts_on: starts, ends_on: lagosDay(-120) },
    });
    expect(terms.statusCode, terms.body).toBe(200);
    const min = shiftYears(starts, -1);
    const early = await record(dayBefore(min));
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.tooEarly(min)] });
    expect((await record(min)).statusCode).toBe(201);
    expect((await report(min)).statusCode).toBe(201);
  });
});

/** Every request that creates money records honours Idempotency-Key. */
describeEachDatabase('retries with an Idempotency-Key', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, bursar: SignedIn & { staffId: string }, pupil: Student;
  let clock = Date.now();
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'], now: () => clock }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    bursar = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
    const granted = await send(admin, 'PUT', `/api/staff-capabilities/${bursar.staffId}/`, { capabilities: ['bursar'] });
    expect(granted.statusCode, granted.body).toBe(200);
    pupil = await signInStudent(ctx, { arm: 'JSS 2A' });
    const fee = await send(admin, 'POST', '/api/payments/fee-schedules/', {
      session_id: sessionId,
      student_class: 'JSS 2A',
      term: '1st',
      name: 'Tuition',
      amount: 100000,
    });
    expect(fee.statusCode, fee.body).toBe(201);
  });

  const send = (who: SignedIn, method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, key?: string) =>
    ctx.app.inject({ method, url, headers: { ...who.auth, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload });
  let n = 0;
  const newKey = () => `key-${dialect}-${++n}-${Math.random().toString(36).slice(2)}`;
  const cash = (over: Record<string, unknown> = {}) => ({
    admission_number: pupil.admissionNumber,
    session_id: sessionId,
    term: '1st',
    amount: 2500 + n,
    method: 'cash',
    paid_on: lagosDay(),
    ...over,
  });
  const payments = async () =>
    (await ctx.handle.db.selectFrom('payments').select('id').where('student_id', '=', pupil.id).execute()).length;

  it('two identical cash payments sent at once with one key record once: one receipt, the same answer twice', async () => {
    const key = newKey();
    const body = cash();
    const before = await payments();
    const [a, b] = await Promise.all([
      send(bursar, 'POST', '/api/bursary/payments/', body, key),
      send(bursar, 'POST', '/api/bursary/payments/', body, key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json()).toEqual(b.json());
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    expect(await payments()).toBe(before + 1);

    // A retry after a time-out: the first answer again, nothing new.
    const again = await send(bursar, 'POST', '/api/bursary/payments/', body, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(a.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await payments()).toBe(before + 1);
  });

  it('ten racing copies of one submission: exactly one receipt', async () => {
    const key = newKey();
    const body = cash({ method: 'bank_teller', bank: 'First Bank', bank_reference: `RACE-${dialect}` });
    const before = await payments();
    const all = await Promise.all(Array.from({ length: 10 }, () => send(bursar, 'POST', '/api/bursary/payments/', body, key)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(all.map((r) => r.json<{ receipt_number: string }>().receipt_number)).size).toBe(1);
    expect(await payments()).toBe(before + 1);
  });

  it('the same key with another body is a 422 and records nothing; a malformed key is a 400', async () => {
    const key = newKey();
    expect((await send(bursar, 'POST', '/api/bursary/payments/', cash(), key)).statusCode).toBe(201);
    const before = await payments();
    const other = await send(bursar, 'POST', '/api/bursary/payments/', cash({ amount: 9999 }), key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ detail: IDEMPOTENCY_MESSAGES.keyReused });
    expect(await payments()).toBe(before);
    const bad = await send(bursar, 'POST', '/api/bursary/payments/', cash(), 'short');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ non_field_errors: [IDEMPOTENCY_MESSAGES.invalidKey] });
    expect(await payments()).toBe(before);
  });

  it('keys are per user: another user sending the same key does their own work', async () => {
    const key = newKey();
    const before = await payments();
    const body = cash({ amount: 777 });
    expect((await send(bursar, 'POST', '/api/bursary/payments/', body, key)).statusCode).toBe(201);
    const byAdmin = await send(admin, 'POST', '/api/bursary/payments/', { ...body, confirm: true }, key);
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.headers['idempotent-replayed']).toBeUndefined();
    expect(await payments()).toBe(before + 2);
  });

  it('a refused request keeps nothing: fixing it and retrying with the same key does the work', async () => {
    const key = newKey();
    const body = cash({ amount: 4321 });
    expect((await send(bursar, 'POST', '/api/bursary/payments/', body)).statusCode).toBe(201);
    const before = await payments();
    // The same cash amount again the same day: asked about (409), nothing recorded.
    const asked = await send(bursar, 'POST', '/api/bursary/payments/', body, key);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ code: DUPLICATE_CASH_CODE });
    expect(await payments()).toBe(before);
    // The bursar confirms (another body): recorded once, and a double tap of the confirmation too.
    const [c1, c2] = await Promise.all([
      send(bursar, 'POST', '/api/bursary/payments/', { ...body, confirm: true }, key),
      send(bursar, 'POST', '/api/bursary/payments/', { ...body, confirm: true }, key),
    ]);
    expect([c1.statusCode, c2.statusCode]).toEqual([201, 201]);
    expect(await payments()).toBe(before + 1);
  });

  it('reversals, discounts, transfer reports (and their confirmation) and online initiate record once per key', async () => {
    const paid = await send(bursar, 'POST', '/api/bursary/payments/', cash({ amount: 1234 }));
    const reference = paid.json<{ reference: string }>().reference;
    const reverseKey = newKey();
    const reversals = await Promise.all(
      [0, 1].map(() => send(bursar, 'POST', `/api/bursary/payments/${reference}/reverse/`, { reason: 'Typed twice' }, reverseKey)),
    );
    expect(reversals.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(reversals[0]!.json()).toEqual(reversals[1]!.json());

    const discountKey = newKey();
    const discount = siblingDiscount(pupil.admissionNumber, sessionId);
    const gifts = await Promise.all([0, 1].map(() => send(bursar, 'POST', '/api/bursary/discounts/', discount, discountKey)));
    expect(gifts.map((r) => r.statusCode)).toEqual([201, 201]);
    const discounts = await ctx.handle.db.selectFrom('fee_discounts').select('id').where('student_id', '=', pupil.id).execute();
    expect(discounts).toHaveLength(1);

    const reportKey = newKey();
    const slip = {
      session_id: sessionId,
      term: null,
      amount: 5000,
      method: 'bank_transfer',
      bank: 'GTBank',
      bank_reference: `SLIP-${dialect}`,
      paid_on: lagosDay(),
      scan: pngDataUrl(),
    };
    const reports = await Promise.all([0, 1].map(() => send(pupil, 'POST', '/api/bursary/transfer-reports/', slip, reportKey)));
    expect(reports.map((r) => r.statusCode)).toEqual([201, 201]);
    const id = reports[0]!.json<{ id: number }>().id;
    expect(reports[1]!.json<{ id: number }>().id).toBe(id);
    const confirmKey = newKey();
    const confirms = await Promise.all(
      [0, 1].map(() => send(bursar, 'POST', `/api/bursary/transfer-reports/${id}/confirm/`, {}, confirmKey)),
    );
    expect(confirms.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(confirms[0]!.json()).toEqual(confirms[1]!.json());

    const initiateKey = newKey();
    const started = await payments();
    const initiate = {
      admission_number: pupil.admissionNumber,
      full_name: 'Ada Eze',
      email: pupil.email,
      current_class: 'JSS 2A',
      current_session: '2025/2026',
      amount: 1000,
      term: '1st',
    };
    const inits = await Promise.all([0, 1].map(() => send(pupil, 'POST', '/api/payments/initiate/', initiate, initiateKey)));
    expect(inits.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(inits[0]!.json<{ data: { reference: string } }>().data.reference).toBe(
      inits[1]!.json<{ data: { reference: string } }>().data.reference,
    );
    expect(await payments()).toBe(started + 1);
  });

  it('after 24 hours a key is forgotten (pruned) and does the work again', async () => {
    const key = newKey();
    const body = cash({ amount: 888, confirm: true });
    expect((await send(bursar, 'POST', '/api/bursary/payments/', body, key)).statusCode).toBe(201);
    const before = await payments();
    clock += 25 * 3_600_000;
    try {
      const later = await send(bursar, 'POST', '/api/bursary/payments/', body, key);
      expect(later.statusCode, later.body).toBe(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(await payments()).toBe(before + 1);
      const old = await ctx.handle.db
        .selectFrom('idempotency_keys')
        .select('id')
        .where('created_at', '<', new Date(clock - 24 * 3_600_000).toISOString())
        .execute();
      expect(old).toEqual([]);
    } finally {
      clock -= 25 * 3_600_000;
    }
  });
});

/** A second cash payment of the same amount for the same student on the same day is asked about. */
describeEachDatabase('a second cash payment today', (dialect) => {
  let ctx: TestContext, sessionId: number, admin: SignedIn, pupil: Student;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    pupil = await signInStudent(ctx, { arm: 'JSS 1A' });
  });
  const record = (over: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/payments/',
      headers: admin.auth,
      payload: {
        admission_number: pupil.admissionNumber,
        session_id: sessionId,
        term: null,
        amount: 5000,
        method: 'cash',
        paid_on: lagosDay(),
        ...over,
      },
    });

  it('refuses without confirm, naming the first receipt; records with confirm; other amounts, days and methods pass', async () => {
    const first = await record();
    expect(first.statusCode, first.body).toBe(201);
    const receipt = first.json<{ receipt_number: string }>().receipt_number;
    const second = await record();
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      detail: DUPLICATE_CASH_MESSAGES.question(5000, receipt),
      code: DUPLICATE_CASH_CODE,
      receipt_number: receipt,
      reference: first.json<{ reference: string }>().reference,
    });
    expect((await record({ confirm: true })).statusCode).toBe(201);
    expect((await record({ amount: 5001 })).statusCode).toBe(201);
    expect((await record({ paid_on: lagosDay(-1) })).statusCode).toBe(201);
    expect((await record({ method: 'pos', bank: 'Access', bank_reference: `POS-${dialect}` })).statusCode).toBe(201);
  });
});
