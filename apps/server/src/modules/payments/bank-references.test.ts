import { describe, expect, it } from 'vitest';
import {
  BANK_REFERENCE_MESSAGES,
  BURSARY_MESSAGES,
  NIGERIAN_BANKS,
  type Bank,
  type LedgerEntry,
  type LedgerPage,
  type Statement,
  type TransferConfirmation,
  type TransferReport,
} from '@portal/domain';
import { describeEachDatabase, requestsOn, type SignedIn, type TestContext } from '../../../test/helpers';
import { lagosDay, pngDataUrl, withBursary, type Student } from '../../../test/payments-fixtures';
import './payments.tables';

/** One reference rule, banks by their code, and a reversed payment releasing its reference. */
describeEachDatabase('bank references and banks', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, bursar: SignedIn, pupil: Student;
  withBursary(dialect, { sessions: ['2025/2026'], arm: 'JSS 2A' }, (s) => ({ ctx, admin, staff, sessionId, bursar, pupil } = s));

  const { get, post } = requestsOn(() => ctx);
  let seq = 0;
  const uniq = () => `${dialect}${++seq}`;
  const record = (who: SignedIn, over: Record<string, unknown>) =>
    post(who, '/api/bursary/payments/', {
      admission_number: pupil.admissionNumber,
      session_id: sessionId,
      term: '1st',
      amount: 10000,
      method: 'bank_teller',
      bank: 'Zenith Bank',
      paid_on: lagosDay(),
      note: '',
      ...over,
    });
  const recorded = async (who: SignedIn, over: Record<string, unknown>) => {
    const res = await record(who, over);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<LedgerEntry>();
  };
  const report = (who: Student, over: Record<string, unknown>) =>
    post(who, '/api/bursary/transfer-reports/', {
      session_id: sessionId,
      term: '1st',
      amount: 20000,
      method: 'bank_transfer',
      bank: 'UBA',
      paid_on: lagosDay(),
      note: '',
      scan: pngDataUrl(),
      ...over,
    });

  describe('invisible characters', () => {
    it('a zero-width space, a BOM or a soft hyphen inside a reference does not make a new one (payment and report)', async () => {
      const ref = `TRF 0099 ${uniq()}`;
      const first = await recorded(bursar, { bank: 'GTBank', bank_reference: ref });
      for (const sneaky of [ref.replace(' ', '\u200B'), `\uFEFF${ref}`, ref.replace('0099', '00\u00AD99'), ref.replace(' ', '\u2060-')]) {
        const again = await record(admin, { bank: 'GTBank', bank_reference: sneaky });
        expect(again.statusCode, sneaky).toBe(409);
        expect(again.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(first.receipt_number) });
      }
      // The student re-reports the credited transfer with a zero-width space: refused at once, naming the receipt.
      const reRef = `UBA/TRX/${uniq()}`;
      const r = await report(pupil, { bank_reference: reRef });
      expect(r.statusCode, r.body).toBe(201);
      const confirmed = await post(bursar, `/api/bursary/transfer-reports/${r.json<TransferReport>().id}/confirm/`, {});
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const receipt = confirmed.json<TransferConfirmation>().payment.receipt_number;
      const twice = await report(pupil, { bank_reference: reRef.replace('TRX', 'T\u200BRX') });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(receipt) });
      // A report still waiting is held by the same rule.
      const waitRef = `ACC-${uniq()}`;
      expect((await report(pupil, { bank: 'Access Bank', bank_reference: waitRef })).statusCode).toBe(201);
      const waiting = await report(pupil, { bank: 'Access Bank Plc', bank_reference: `\u200C${waitRef.toLowerCase()}` });
      expect(waiting.statusCode).toBe(409);
      // What was typed is kept for display.
      expect(first.bank_reference).toBe(ref);
    });
  });

  describe('look-alike letters', () => {
    it('a reference with a Cyrillic letter among Latin ones is refused with the domain message, everywhere', async () => {
      const ref = `TLR-${uniq()}`;
      await recorded(bursar, { bank_reference: ref });
      const cyr = await record(bursar, { bank_reference: ref.replace('T', '\u0422') });
      expect(cyr.statusCode).toBe(400);
      expect(cyr.json()).toEqual({ bank_reference: [BANK_REFERENCE_MESSAGES.otherScript] });
      const reported = await report(pupil, { bank_reference: ref.replace('T', '\u0422') });
      expect(reported.statusCode).toBe(400);
      expect(reported.json()).toEqual({ bank_reference: [BANK_REFERENCE_MESSAGES.otherScript] });
      const search = await get(bursar, `/api/bursary/payments/?bank_reference=${encodeURIComponent(ref.replace('T', '\u0422'))}`);
      expect(search.statusCode).toBe(400);
      expect(search.json()).toEqual({ bank_reference: [BANK_REFERENCE_MESSAGES.otherScript] });
      expect((await ctx.handle.db.selectFrom('payments').select('id').where('bank_reference', 'like', '%\u0422%').execute()).length).toBe(
        0,
      );
    });
  });

  describe('banks from a list', () => {
    it('the same reference at "Access Bank" and "Access Bank Plc", or "GTBank" and "Guaranty Trust Bank", is one', async () => {
      for (const [a, b] of [
        ['Access Bank', 'Access Bank Plc'],
        ['GTBank', 'Guaranty Trust Bank'],
        ['FBN', 'First Bank of Nigeria'],
        ['GTB', 'guaranty trust bank plc'],
      ] as const) {
        const ref = `SAME-${uniq()}`;
        const first = await recorded(bursar, { bank: a, bank_reference: ref });
        const again = await record(bursar, { bank: b, bank_reference: ref });
        expect(again.statusCode, `${a} / ${b}`).toBe(409);
        expect(again.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(first.receipt_number) });
        // Stored under the list's name.
        expect(first.bank).toBe(NIGERIAN_BANKS.find((x) => x.aliases.includes(a) || x.name === a)!.name);
      }
      // The same reference at another bank is another payment.
      const ref = `TWO-${uniq()}`;
      await recorded(bursar, { bank: 'Zenith Bank', bank_reference: ref });
      await recorded(bursar, { bank: 'UBA', bank_reference: ref });
    });

    it('a bank not on the list is refused until the admin adds it; everyone signed in reads the list', async () => {
      const unknown = await record(bursar, { bank: 'Bank of Testing', bank_reference: `X-${uniq()}` });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ bank: [BANK_REFERENCE_MESSAGES.bankUnknown] });
      const code = String(900 + (dialect === 'sqlite' ? 1 : 2));
      expect((await post(bursar, '/api/bursary/banks/', { code, name: 'Bank of Testing' })).statusCode).toBe(403);
      const added = await post(admin, '/api/bursary/banks/', { code, name: 'Bank of Testing', aliases: ['BOT'] });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json<Bank>()).toEqual({ code, name: 'Bank of Testing', aliases: ['BOT'], kind: 'added' });
      const sameCode = await post(admin, '/api/bursary/banks/', { code: '058', name: 'Another' });
      expect(sameCode.statusCode).toBe(409);
      expect(sameCode.json()).toEqual({ detail: BANK_REFERENCE_MESSAGES.bankCodeTaken('Guaranty Trust Bank') });
      const sameName = await post(admin, '/api/bursary/banks/', { code: '998877', name: 'GT Bank Plc' });
      expect(sameName.statusCode).toBe(409);
      const badCode = await post(admin, '/api/bursary/banks/', { code: 'AB1', name: 'Letters' });
      expect(badCode.statusCode).toBe(400);
      expect(badCode.json()).toEqual({ code: [BANK_REFERENCE_MESSAGES.bankCodeInvalid] });
      const ok = await record(bursar, { bank: 'bot', bank_reference: `X-${uniq()}` });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json<LedgerEntry>().bank).toBe('Bank of Testing');
      for (const who of [pupil, staff, bursar, admin]) {
        const list = await get(who, '/api/bursary/banks/');
        expect(list.statusCode).toBe(200);
        const banks = list.json<Bank[]>();
        expect(banks.map((b) => b.code)).toEqual(expect.arrayContaining(['044', '058', '011', '057', '033', code]));
      }
      expect((await ctx.app.inject({ method: 'GET', url: '/api/bursary/banks/' })).statusCode).toBe(401);
    });
  });

  describe('a reversed payment releases its bank reference', () => {
    it('the right amount is recorded with the same teller after a reversal, and says which receipt it replaces', async () => {
      const ref = `TLR-${uniq()}`;
      const wrong = await recorded(bursar, { amount: 9000, bank_reference: ref });
      const rev = await post(bursar, `/api/bursary/payments/${wrong.reference}/reverse/`, { reason: 'Amount was 90,000' });
      expect(rev.statusCode, rev.body).toBe(201);
      const right = await recorded(bursar, { amount: 90000, bank_reference: ref.toLowerCase() });
      expect(right.replaces).toEqual({ reference: wrong.reference, receipt_number: wrong.receipt_number });
      // Held again by the new payment.
      const third = await record(admin, { amount: 90000, bank_reference: ref });
      expect(third.statusCode).toBe(409);
      expect(third.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(right.receipt_number) });

      // The ledger, searched by the reference as typed loosely: the payment, its reversal and its replacement.
      const page = (
        await get(bursar, `/api/bursary/payments/?bank_reference=${encodeURIComponent(` ${ref.toLowerCase()}\u200B`)}`)
      ).json<LedgerPage>();
      expect(page.entries.map((e) => [e.kind, e.amount, e.replaces?.receipt_number ?? null]).sort()).toEqual(
        [
          ['payment', 9000, null],
          ['reversal', -9000, null],
          ['payment', 90000, wrong.receipt_number],
        ].sort(),
      );
      // The statement says it too.
      const st = (
        await get(bursar, `/api/bursary/statement/?admission_number=${pupil.admissionNumber}&session_id=${sessionId}`)
      ).json<Statement>();
      const line = st.lines.find((l) => l.receipt_number === right.receipt_number)!;
      expect(line.description).toContain(BANK_REFERENCE_MESSAGES.replaces(wrong.receipt_number));

      // A report of the reversed payment's reference is not refused as recorded; of the live one it is.
      const other = await recorded(bursar, { bank: 'UBA', bank_reference: `UBA-${uniq()}` });
      await post(bursar, `/api/bursary/payments/${other.reference}/reverse/`, { reason: 'Bounced' });
      expect((await report(pupil, { bank: 'UBA', bank_reference: other.bank_reference })).statusCode).toBe(201);
    });
  });
});
