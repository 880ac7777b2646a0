import { createHmac, hkdfSync } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CHECK_RESULT_CODES, RESULT_PIN_MESSAGES, readPin, SUBJECTS } from '@portal/domain';
import { createFeeItems, createResults } from '../../db/factories';
import { nowIso } from '../../db/index';
import { lagosDay } from '../../../test/payments-fixtures';
import {
  createSession,
  createStudent,
  csvLines,
  describeEachDatabase,
  json,
  signInAdmin,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  withTestContext,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { PinsRepository } from './pins.repository';
import './pins.tables';

type Who = SignedIn | null;

describe('readPin: one reading of a typed PIN', () => {
  it('keeps 12 digits through spaces, dashes, full-width digits and invisible characters', () => {
    expect(readPin(' 1234 5678 9012 ')).toBe('123456789012');
    expect(readPin('1234-5678-9012')).toBe('123456789012');
    expect(readPin('１２３４５６７８９０１２')).toBe('123456789012');
    expect(readPin('1234\u200b5678\u200d9012\ufeff')).toBe('123456789012');
    expect(readPin('12345678901')).toBeNull();
    expect(readPin('1234567890123')).toBeNull();
    expect(readPin('12345678901a')).toBeNull();
    expect(readPin('١٢٣٤٥٦٧٨٩٠١٢')).toBeNull();
  });
});

/** The hash the server stores for a PIN under the test secret (decision 043): proof nothing else is kept. */
function hashOf(secret: string, pin: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'portal-result-pins', 'pin-hash', 32));
  return createHmac('sha256', key).update(pin).digest('hex');
}

describeEachDatabase('result-checker PINs', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let bursar: SignedIn;
  let staff: SignedIn;
  let session: { id: number; name: string };
  let other: { id: number; name: string };
  let ip = 0;
  /** Each test its own client address, so the address counter of one test never blocks another. */
  const nextIp = () => `10.9.${Math.floor(++ip / 250)}.${ip % 250}`;
  withTestContext(dialect, async (c) => {
    ctx = c;
    admin = await signInAdmin(ctx);
    staff = await signInStaff(ctx);
    const b = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/staff-capabilities/${b.staffId}/`,
      headers: admin.auth,
      payload: { capabilities: ['bursar'] },
    });
    expect(put.statusCode).toBe(200);
    bursar = b;
    session = await createSession(ctx.handle.db, '2025/2026', true);
    other = await createSession(ctx.handle.db, '2024/2025');
    await setPins(true);
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: Who, payload?: unknown, o: Partial<InjectOptions> = {}) =>
    ctx.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload === undefined ? {} : { payload: payload as object }), ...o });

  async function setPins(enabled: boolean, uses = 5) {
    const current = json(await call('GET', '/api/settings/', null));
    const res = await call('PUT', '/api/settings/', admin, { ...current, result_pins_enabled: enabled, result_pin_uses: uses });
    expect(res.statusCode).toBe(200);
  }

  /** A batch and its PINs read back from the printer's CSV. */
  async function batch(body: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/result-pins/batches/', admin, { session_id: session.id, term: '1st', count: 3, ...body });
    expect(res.statusCode, res.body).toBe(201);
    const b = json<{ id: number; uses: number; count: number; printable: boolean }>(res);
    const csv = await call('GET', `/api/result-pins/batches/${b.id}/cards.csv`, admin);
    expect(csv.statusCode).toBe(200);
    const cards = csvLines(csv)
      .slice(1)
      .map((l) => l.split(','))
      .map(([serial, pin]) => ({ serial: serial!, pin: pin! }));
    return { ...b, cards };
  }

  let seq = 0;
  /** A student of JSS 1A with scores in `term` of the current session, released when asked. */
  async function student(o: { released?: boolean; term?: '1st' | '2nd' } = {}) {
    const s = await createStudent(ctx.handle.db, {
      email: `pin${++seq}-${Date.now()}@test.school`,
      password: TEST_PASSWORD,
      firstName: 'Kemi',
      lastName: `P${seq}`,
      arm: 'JSS 1A',
    });
    const term = o.term ?? '1st';
    await createResults(ctx.handle.db, [{ studentId: s.id, sessionId: session.id, term, arm: 'JSS 1A', subject: SUBJECTS[0], score: 71 }]);
    if (o.released !== false) {
      const pub = await call('POST', '/api/results/publications/', admin, { session_id: session.id, term, student_class: 'JSS 1A' });
      expect([200, 201]).toContain(pub.statusCode);
    }
    return s;
  }

  const check = (body: Record<string, unknown>, addr = nextIp()) =>
    call('POST', '/api/check-result/', null, { session_id: session.id, term: '1st', ...body }, { remoteAddress: addr });
  const usesOf = async (serial: string) =>
    await ctx.handle.db.selectFrom('result_pins').select(['uses', 'student_id']).where('serial', '=', serial).executeTakeFirstOrThrow();

  it('generates a batch: 12-digit PINs stored only as their keyed hash; the printable copy is ciphertext until sealed', async () => {
    const b = await batch({ count: 4, uses: 3 });
    expect(b).toMatchObject({ count: 4, uses: 3, printable: true });
    expect(b.cards).toHaveLength(4);
    const rows = await ctx.handle.db.selectFrom('result_pins').selectAll().where('batch_id', '=', b.id).orderBy('id').execute();
    for (const [i, c] of b.cards.entries()) {
      expect(c.pin).toMatch(/^\d{12}$/);
      expect(rows[i]!.serial).toBe(c.serial);
      expect(rows[i]!.pin_hash).toBe(hashOf(ctx.config.resultPinSecret, c.pin));
      expect(rows[i]!.printable).not.toContain(c.pin);
      expect(rows[i]!.max_uses).toBe(3);
    }
    const pdf = await call('GET', `/api/result-pins/batches/${b.id}/sheet.pdf`, admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    // Sealing erases the printable copies: the sheet and CSV are refused from then on.
    const sealed = await call('POST', `/api/result-pins/batches/${b.id}/seal/`, admin, {});
    expect(sealed.statusCode).toBe(200);
    expect(json(sealed)).toMatchObject({ printable: false, unused: 4 });
    const left = await ctx.handle.db.selectFrom('result_pins').select('printable').where('batch_id', '=', b.id).execute();
    expect(left.every((r) => r.printable === null)).toBe(true);
    expect((await call('GET', `/api/result-pins/batches/${b.id}/cards.csv`, admin)).statusCode).toBe(409);
    expect(json(await call('GET', `/api/result-pins/batches/${b.id}/sheet.pdf`, admin))).toEqual({ detail: RESULT_PIN_MESSAGES.sealed });
    expect((await call('POST', `/api/result-pins/batches/${b.id}/seal/`, admin, {})).statusCode).toBe(409);
  });

  it('refuses a bad batch with a 400 and writes nothing; uses default to the setting', async () => {
    const before = await ctx.handle.db.selectFrom('result_pin_batches').select('id').execute();
    for (const body of [{ count: 0 }, { count: 5001 }, { uses: 51 }, { term: '4th' }, { session_id: 999999 }]) {
      const res = await call('POST', '/api/result-pins/batches/', admin, { session_id: session.id, term: null, count: 2, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await ctx.handle.db.selectFrom('result_pin_batches').select('id').execute()).toHaveLength(before.length);
    await setPins(true, 7);
    const res = await call('POST', '/api/result-pins/batches/', admin, { session_id: session.id, term: null, count: 1 });
    expect(json(res)).toMatchObject({ uses: 7, term: null });
    await setPins(true, 5);
  });

  it('marks cards sold (bursar: who, when, price), all or none, and lists cards by state a page at a time', async () => {
    const b = await batch({ count: 60 });
    const [a, c] = [b.cards[0]!.serial, b.cards[1]!.serial];
    const bad = await call('POST', `/api/result-pins/batches/${b.id}/sold/`, bursar, { serials: [a, 'NOPE-1'], price: 500 });
    expect(bad.statusCode).toBe(400);
    expect(
      (await usesOf(a)) &&
        (await ctx.handle.db.selectFrom('result_pins').select('sold_at').where('serial', '=', a).executeTakeFirst())?.sold_at,
    ).toBeNull();
    expect((await call('POST', `/api/result-pins/batches/${b.id}/sold/`, staff, { serials: [a], price: 500 })).statusCode).toBe(403);
    const ok = await call('POST', `/api/result-pins/batches/${b.id}/sold/`, bursar, {
      serials: [a, c.toLowerCase()],
      price: '500.50',
      sold_to: 'Mrs Ade',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok)).toEqual({ sold: 2 });
    expect((await call('POST', `/api/result-pins/batches/${b.id}/sold/`, bursar, { serials: [a], price: 500 })).statusCode).toBe(400);
    const sold = json<{ count: number; results: { serial: string; sold_by: string; price: number; sold_to: string }[] }>(
      await call('GET', `/api/result-pins/batches/${b.id}/pins/?state=sold`, bursar),
    );
    expect(sold.count).toBe(2);
    expect(sold.results[0]).toMatchObject({ serial: a, sold_by: 'Bola Bursar', price: 500.5, sold_to: 'Mrs Ade' });
    const page2 = json<{ count: number; results: unknown[] }>(
      await call('GET', `/api/result-pins/batches/${b.id}/pins/?state=unused&page=2`, admin),
    );
    expect(page2).toMatchObject({ count: 60, page: 2 });
    expect(page2.results).toHaveLength(10);
    expect(json(await call('GET', `/api/result-pins/batches/${b.id}/`, bursar))).toMatchObject({
      sold: 2,
      unused: 60,
      used: 0,
      exhausted: 0,
    });
  });

  it('checks a released card: identifiers in any typed form; the PIN binds to its first student; uses counted; PDF without a use', async () => {
    const s = await student();
    const b = await batch();
    const { pin, serial } = b.cards[0]!;
    const typedPin = `${pin.slice(0, 4)} ${[...pin.slice(4, 8)].map((d) => String.fromCharCode(0xff10 + Number(d))).join('')}-\u200b${pin.slice(8)}`;
    const typedNumber = ` ${s.admissionNumber.toLowerCase().replace('-', ' ')} `;
    const res = await check({ admission_number: typedNumber, pin: typedPin });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ card: { student: { admission_number: string } }; uses_left: number; pdf_token: string }>(res);
    expect(body.card.student.admission_number).toBe(s.admissionNumber);
    expect(body.uses_left).toBe(4);
    expect(await usesOf(serial)).toEqual({ uses: 1, student_id: s.id });
    // The checked card's PDF is the card store's file (decision 050): drawn once, stored, then served as stored.
    await ctx.app.cardPdfs.idle();
    await ctx.handle.db.deleteFrom('report_card_pdfs').where('student_id', '=', s.id).execute();
    const drawn = ctx.app.cardPdfs.drawn;
    const pdf = await call('GET', `/api/check-result/pdf/?token=${encodeURIComponent(body.pdf_token)}`, null);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect((await usesOf(serial)).uses).toBe(1);
    const stored = await ctx.handle.db.selectFrom('report_card_pdfs').select('pdf').where('student_id', '=', s.id).execute();
    expect(stored.map((r) => Buffer.from(r.pdf).equals(pdf.rawPayload))).toEqual([true]);
    const again = await call('GET', `/api/check-result/pdf/?token=${encodeURIComponent(body.pdf_token)}`, null);
    expect(again.rawPayload.equals(pdf.rawPayload)).toBe(true);
    expect(ctx.app.cardPdfs.drawn).toBe(drawn + 1);
    const forged = `${body.pdf_token.slice(0, -2)}xx`;
    expect((await call('GET', `/api/check-result/pdf/?token=${encodeURIComponent(forged)}`, null)).statusCode).toBe(400);
    // Bound: another student is refused (also a number of nobody: a PIN's holder learns nothing of numbers).
    const t = await student();
    for (const n of [t.admissionNumber, 'ZZZ-9999']) {
      const refused = await check({ admission_number: n, pin });
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ detail: RESULT_PIN_MESSAGES.boundToAnother, code: CHECK_RESULT_CODES.boundToAnother });
    }
    expect(await usesOf(serial)).toEqual({ uses: 1, student_id: s.id });
    const log = await ctx.handle.db.selectFrom('result_pin_uses').selectAll().where('pin_id', 'is not', null).orderBy('id').execute();
    expect(log.filter((l) => l.result === 'ok')).toHaveLength(1);
    expect(log.some((l) => l.result === 'bound_to_another' && l.ip.startsWith('10.9.'))).toBe(true);
  });

  it('one answer for a wrong PIN and an unknown number; another term, an unreleased card: refused without a use', async () => {
    const s = await student();
    const b = await batch();
    const { pin, serial } = b.cards[0]!;
    const wrongPin = await check({ admission_number: s.admissionNumber, pin: pin === '000000000000' ? '000000000001' : '000000000000' });
    const unknownNumber = await check({ admission_number: 'ZZZ-9999', pin });
    expect(wrongPin.statusCode).toBe(404);
    expect(unknownNumber.statusCode).toBe(404);
    expect(json(wrongPin)).toEqual(json(unknownNumber));
    expect(json(wrongPin)).toEqual({ detail: RESULT_PIN_MESSAGES.wrongPinOrNumber, code: CHECK_RESULT_CODES.wrong });
    const otherTerm = await check({ admission_number: s.admissionNumber, pin, term: '2nd' });
    expect(json(otherTerm)).toMatchObject({ code: CHECK_RESULT_CODES.otherTerm });
    expect((await check({ admission_number: s.admissionNumber, pin, session_id: other.id })).statusCode).toBe(400);
    const hidden = await student({ released: false, term: '2nd' });
    const whole = await batch({ term: null });
    const notReleased = await check({ admission_number: hidden.admissionNumber, pin: whole.cards[0]!.pin, term: '2nd' });
    expect(notReleased.statusCode).toBe(404);
    expect(json(notReleased)).toMatchObject({ detail: RESULT_PIN_MESSAGES.notReleased, code: CHECK_RESULT_CODES.notReleased });
    expect(await usesOf(whole.cards[0]!.serial)).toEqual({ uses: 0, student_id: null });
    expect(await usesOf(serial)).toEqual({ uses: 0, student_id: null });
    // Bad input: a 400 naming the field.
    const bad = await check({ admission_number: s.admissionNumber, pin: '1234' });
    expect(json(bad)).toEqual({ pin: [RESULT_PIN_MESSAGES.pinInvalid] });
  });

  it('20 checks at once of a 5-use PIN: exactly 5 answered with the card, the use count 5', async () => {
    const s = await student();
    const b = await batch({ uses: 5 });
    const { pin, serial } = b.cards[0]!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => check({ admission_number: s.admissionNumber, pin }, `10.20.0.${i}`)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c !== 200).every((c) => c === 403 || c === 429)).toBe(true);
    expect(answers.filter((a) => a.statusCode === 403).every((a) => json(a).code === CHECK_RESULT_CODES.exhausted)).toBe(true);
    expect((await usesOf(serial)).uses).toBe(5);
    expect(
      json<{ uses_left: number }[]>(answers[0]!) &&
        answers
          .filter((a) => a.statusCode === 200)
          .map((a) => json<{ uses_left: number }>(a).uses_left)
          .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
    const again = await check({ admission_number: s.admissionNumber, pin });
    expect(json(again)).toEqual({ detail: RESULT_PIN_MESSAGES.exhausted, code: CHECK_RESULT_CODES.exhausted });
  });

  it('takes uses in one conditional statement: 20 at once on a 5-use PIN take exactly 5, all for its first student', async () => {
    const s = await student();
    const t = await student();
    const b = await batch({ uses: 5 });
    const repo = new PinsRepository(ctx.handle.db, ctx.handle.dialect);
    const pin = await repo.pinByHash(hashOf(ctx.config.resultPinSecret, b.cards[0]!.pin));
    const at = new Date().toISOString();
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => repo.takeUse(pin!.id, i % 2 ? s.id : t.id, at)));
    expect(taken.filter((u) => u !== undefined).sort()).toEqual([1, 2, 3, 4, 5]);
    const state = await usesOf(b.cards[0]!.serial);
    expect(state.uses).toBe(5);
    expect(await repo.takeUse(pin!.id, state.student_id!, at)).toBeUndefined();
  });

  it('brute force: 10 wrong PINs for a number lock it on every address (429, domain message), even with the right PIN', async () => {
    const s = await student();
    const b = await batch();
    const limit = ctx.config.resultPinLimits.perNumber.max;
    for (let i = 0; i < limit; i++) {
      const res = await check({ admission_number: s.admissionNumber, pin: String(100000000000 + i) }, `10.30.0.${i}`);
      expect(res.statusCode).toBe(404);
    }
    const locked = await check({ admission_number: s.admissionNumber.toLowerCase(), pin: b.cards[0]!.pin }, '10.30.1.1');
    expect(locked.statusCode).toBe(429);
    expect(json(locked)).toEqual({ detail: RESULT_PIN_MESSAGES.tooManyAttempts(15), code: CHECK_RESULT_CODES.throttled });
    expect(locked.headers['retry-after']).toBe('900');
    expect(await usesOf(b.cards[0]!.serial)).toEqual({ uses: 0, student_id: null });
    expect(
      (await ctx.handle.db.selectFrom('result_pin_uses').select('id').where('result', '=', 'throttled').execute()).length,
    ).toBeGreaterThan(0);
  });

  it('brute force: 20 wrong guesses from one address lock that address, whatever the number', async () => {
    const s = await student();
    const b = await batch();
    const limit = ctx.config.resultPinLimits.perAddress.max;
    for (let i = 0; i < limit; i++) {
      const res = await check(
        { admission_number: `QQ-${1000 + i}`, pin: b.cards[0]!.pin.replace(/^./, (d) => String((Number(d) + 1) % 10)) },
        '10.40.0.1',
      );
      expect(res.statusCode).toBe(404);
    }
    expect((await check({ admission_number: s.admissionNumber, pin: b.cards[1]!.pin }, '10.40.0.1')).statusCode).toBe(429);
    expect((await check({ admission_number: s.admissionNumber, pin: b.cards[1]!.pin }, '10.40.0.2')).statusCode).toBe(200);
  });

  it('the fee gate applies to a PIN check when the school gates results: 403 fees_outstanding, no use taken, the attempt given back', async () => {
    const s = await student();
    const b = await batch();
    const { pin, serial } = b.cards[0]!;
    await ctx.handle.db
      .insertInto('school_terms')
      .values({
        session_id: session.id,
        term: '1st',
        starts_on: lagosDay(-30),
        ends_on: lagosDay(30),
        next_term_begins: null,
        times_opened: null,
        updated_by: null,
        updated_at: nowIso(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await createFeeItems(ctx.handle.db, [
      { arm: 'JSS 1A', sessionId: session.id, term: '1st', name: 'PIN tuition', amountKobo: 5_000_000 },
    ]);
    const current = json(await call('GET', '/api/settings/', null));
    expect(
      (await call('PUT', '/api/settings/', admin, { ...current, results_fee_gate: true, results_fee_gate_percent: 100 })).statusCode,
    ).toBe(200);
    try {
      const res = await check({ admission_number: s.admissionNumber, pin });
      expect(res.statusCode, res.body).toBe(403);
      expect(json(res)).toMatchObject({ code: 'fees_outstanding' });
      expect(await usesOf(serial)).toEqual({ uses: 0, student_id: null });
      const logged = await ctx.handle.db.selectFrom('result_pin_uses').select('result').where('student_id', '=', s.id).execute();
      expect(logged).toEqual([{ result: 'fees_outstanding' }]);
    } finally {
      expect((await call('PUT', '/api/settings/', admin, { ...current, results_fee_gate: false })).statusCode).toBe(200);
    }
    expect((await check({ admission_number: s.admissionNumber, pin })).statusCode).toBe(200);
  });

  it('the check is closed while the setting is off; options list the released sessions and terms', async () => {
    const s = await student();
    const b = await batch();
    expect(json(await call('GET', '/api/check-result/options/', null))).toMatchObject({
      enabled: true,
      sessions: [{ id: session.id, name: session.name, terms: ['1st'] }],
    });
    await setPins(false);
    try {
      expect(json(await call('GET', '/api/check-result/options/', null))).toEqual({ enabled: false, sessions: [] });
      const res = await check({ admission_number: s.admissionNumber, pin: b.cards[0]!.pin });
      expect(json(res)).toEqual({ detail: RESULT_PIN_MESSAGES.disabled, code: CHECK_RESULT_CODES.disabled });
      expect(res.statusCode).toBe(403);
    } finally {
      await setPins(true);
    }
  });

  it('admin and bursar routes refuse others; the check routes are public', async () => {
    const st = await signInStudent(ctx);
    const b = await batch({ count: 1 });
    const urls = [`/api/result-pins/batches/`, `/api/result-pins/batches/${b.id}/`, `/api/result-pins/batches/${b.id}/pins/`];
    for (const url of urls) {
      expect((await call('GET', url, null)).statusCode).toBe(401);
      expect((await call('GET', url, st)).statusCode).toBe(403);
      expect((await call('GET', url, staff)).statusCode).toBe(403);
      expect((await call('GET', url, bursar)).statusCode).toBe(200);
    }
    for (const url of [`/api/result-pins/batches/${b.id}/sheet.pdf`, `/api/result-pins/batches/${b.id}/cards.csv`]) {
      expect((await call('GET', url, bursar)).statusCode).toBe(403);
    }
    expect((await call('POST', '/api/result-pins/batches/', bursar, { session_id: session.id, term: null, count: 1 })).statusCode).toBe(
      403,
    );
  });
});
