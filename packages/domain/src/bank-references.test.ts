import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BANK_REFERENCE_MESSAGES,
  NIGERIAN_BANKS,
  bankNameKey,
  bankReferenceKey,
  findBank,
  referenceKey,
  referenceProblem,
} from './bank-references';
import { offlinePaymentSchema } from './bursary';
import { transferReportSchema } from './transfer-reports';

// Characters that render as nothing: each must leave a reference's key as it was.
const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u180E', '\u034F', '\uFE0F', '\u2061'];
const SEPARATORS = [' ', '-', '_', '/', '.', '\u00A0', '\u2010', '\u2013', '\u2014', '\u2212', '\u3000', '\t'];
const plain = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('')),
  minLength: 1,
  maxLength: 20,
});

/** `s` with `extra` characters inserted at the given positions. */
function sprinkle(s: string, extra: { at: number; ch: string }[]): string {
  const chars = [...s];
  for (const { at, ch } of extra) chars.splice(at % (chars.length + 1), 0, ch);
  return chars.join('');
}

describe('the bank reference rule', () => {
  it('is idempotent on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        expect(referenceKey(referenceKey(s))).toBe(referenceKey(s));
      }),
    );
  });

  it('ignores invisible characters, spaces and dashes anywhere (30.1)', () => {
    fc.assert(
      fc.property(
        plain,
        fc.array(fc.record({ at: fc.nat(40), ch: fc.constantFrom(...INVISIBLES, ...SEPARATORS) }), { maxLength: 6 }),
        (s, extra) => {
          expect(referenceKey(sprinkle(s, extra))).toBe(referenceKey(s));
          expect(referenceProblem(sprinkle(s, extra))).toBeNull();
        },
      ),
    );
    expect(referenceKey('TRF\u200B0099 1234')).toBe('TRF00991234');
  });

  it('ignores case and full-width forms (NFKC)', () => {
    fc.assert(
      fc.property(plain, (s) => {
        expect(referenceKey(s.toLowerCase())).toBe(referenceKey(s.toUpperCase()));
        const fullWidth = [...s].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
        expect(referenceKey(fullWidth)).toBe(referenceKey(s));
      }),
    );
  });

  it('keeps references that differ in a visible letter or digit apart', () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        fc.pre(a.toUpperCase() !== b.toUpperCase());
        expect(referenceKey(a)).not.toBe(referenceKey(b));
      }),
    );
  });

  it('refuses a letter or digit of another script (a Cyrillic Т among Latin letters, 30.2)', () => {
    const lookAlikes = ['\u0422', '\u0410', '\u041E', '\u0440', '\u0435', '\u0391', '\u039F', '\u0661', '\u0966'];
    fc.assert(
      fc.property(plain, fc.nat(20), fc.constantFrom(...lookAlikes), (s, at, ch) => {
        expect(referenceProblem(sprinkle(s, [{ at, ch }]))).toBe(BANK_REFERENCE_MESSAGES.otherScript);
      }),
    );
    expect(referenceProblem('\u0422LR-5521')).toBe(BANK_REFERENCE_MESSAGES.otherScript);
    expect(referenceProblem('TLR-5521')).toBeNull();
    expect(referenceProblem('ＴＬＲ５５２１')).toBeNull(); // full-width Latin is Latin
  });

  it('the schemas refuse it with the domain message, and a reference of separators only is none', () => {
    const base = { admission_number: 'STU-0001', session_id: 1, term: null, amount: 5000, paid_on: '2025-10-01', bank: 'GTBank' };
    const cyr = offlinePaymentSchema.safeParse({ ...base, method: 'bank_teller', bank_reference: '\u0422LR-1' });
    expect(cyr.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['bank_reference', BANK_REFERENCE_MESSAGES.otherScript]]);
    const dashes = offlinePaymentSchema.safeParse({ ...base, method: 'bank_teller', bank_reference: '-- \u200B' });
    expect(dashes.error!.issues.map((i) => i.path.join('.'))).toEqual(['bank_reference']);
    const report = transferReportSchema.safeParse({
      session_id: 1,
      term: null,
      amount: 500,
      method: 'bank_transfer',
      bank: 'UBA',
      bank_reference: 'UBA/\u0422RX/1',
      paid_on: '2025-10-01',
      scan: 'data:image/png;base64,iVBORw0KGgo=',
    });
    expect(report.error!.issues.map((i) => i.message)).toEqual([BANK_REFERENCE_MESSAGES.otherScript]);
  });

  it('the uniqueness key is the bank code and the reference key', () => {
    expect(bankReferenceKey('058', 'TRF 0099\u200B-1234')).toBe('058|TRF00991234');
  });
});

describe('the list of banks', () => {
  it('matches common ways of writing a bank to one code (30.3)', () => {
    const code = (name: string) => findBank(name)?.code;
    expect(['Access Bank', 'Access Bank Plc', 'ACCESS', 'access bank nigeria plc'].map(code)).toEqual(['044', '044', '044', '044']);
    expect(['GTBank', 'GTB', 'Guaranty Trust Bank', 'Guaranty Trust Bank Plc', 'GT Bank'].map(code)).toEqual([
      '058',
      '058',
      '058',
      '058',
      '058',
    ]);
    expect(['FBN', 'First Bank of Nigeria', 'First Bank', 'FirstBank Plc'].map(code)).toEqual(['011', '011', '011', '011']);
    expect(['Zenith Bank', 'zenith', 'UBA', 'United Bank for Africa'].map(code)).toEqual(['057', '057', '033', '033']);
    expect(code('FBNQuest Merchant Bank')).toBe('060002');
    expect(code('Bank of Nowhere')).toBeUndefined();
    expect(code('   ')).toBeUndefined();
  });

  it('has unique codes and no two banks sharing a name key', () => {
    expect(new Set(NIGERIAN_BANKS.map((b) => b.code)).size).toBe(NIGERIAN_BANKS.length);
    const keys = NIGERIAN_BANKS.flatMap((b) => [b.name, ...b.aliases].map((n) => [bankNameKey(n), b.code] as const));
    const owner = new Map<string, string>();
    for (const [k, c] of keys) {
      expect(owner.get(k) ?? c, k).toBe(c);
      owner.set(k, c);
    }
  });
});
