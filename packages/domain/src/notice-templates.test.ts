import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  DEFAULT_NOTICE_TEMPLATES,
  NOTICE_KIND_PLACEHOLDERS,
  NOTICE_SAMPLE_VALUES,
  NOTICE_TEMPLATE_KINDS,
  NOTICE_TEMPLATE_MESSAGES,
  placeholdersIn,
  joinNames,
  noticeAmount,
  noticeDate,
  renderTemplate,
} from './notice-templates';
import { blastBodySchema, noticeTemplateSchema } from './notice-templates-schemas';
import { smsLength } from './notice-templates-sms';

describe('the default templates', () => {
  it('use only their kind’s placeholders, and fit one GSM-7 unit with typical values', () => {
    for (const kind of NOTICE_TEMPLATE_KINDS) {
      const t = DEFAULT_NOTICE_TEMPLATES[kind];
      for (const text of [t.sms_body, t.email_subject, t.email_body]) expect(checkTemplate(kind, text), `${kind}: ${text}`).toEqual([]);
      const values = NOTICE_SAMPLE_VALUES;
      const sms = smsLength(renderTemplate(t.sms_body, values));
      expect(sms.encoding, kind).toBe('GSM-7');
      expect(sms.units, kind).toBe(1);
    }
  });
});

describe('checkTemplate', () => {
  it('names an unknown placeholder with the ones allowed', () => {
    expect(checkTemplate('absent_today', 'Hello {parent_name}, {receipt_number}')).toEqual([
      {
        fragment: '{receipt_number}',
        message: NOTICE_TEMPLATE_MESSAGES.unknownPlaceholder('receipt_number', NOTICE_KIND_PLACEHOLDERS.absent_today),
      },
    ]);
    expect(NOTICE_TEMPLATE_MESSAGES.unknownPlaceholder('x', ['date', 'school'])).toBe(
      '{x} is not a placeholder this notice can use. Use {date}, {school}.',
    );
  });

  it('names malformed ones: unclosed, unopened, capitals, spaces, empty', () => {
    const frags = (t: string) => checkTemplate('absent_today', t).map((p) => p.fragment);
    expect(frags('Dear {parent_name')).toEqual(['{parent_name']);
    expect(frags('Dear parent_name}')).toEqual(['}']);
    expect(frags('Dear {Parent_Name}')).toEqual(['{Parent_Name}']);
    expect(frags('Dear { parent_name }')).toEqual(['{', '}']);
    expect(frags('{}')).toEqual(['{}']);
    expect(frags('{{date}}')).toEqual(['{', '}']);
    expect(frags('ok {date} and {school}')).toEqual([]);
  });

  it('refuses control characters and text-direction overrides, keeps line breaks', () => {
    expect(checkTemplate('custom', 'a\u0007b')[0]?.message).toMatch(/control characters/);
    expect(checkTemplate('custom', 'a\u202Eb')[0]?.message).toMatch(/control characters/);
    expect(checkTemplate('custom', 'line one\nline two')).toEqual([]);
  });

  it('never throws, and a text of allowed placeholders and plain words passes (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        expect(Array.isArray(checkTemplate('results_released', s))).toBe(true);
      }),
    );
    const allowed = NOTICE_KIND_PLACEHOLDERS.payment_received;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...allowed).map((p) => `{${p}}`),
            fc.stringMatching(/^[A-Za-z0-9 .,:'-]{0,12}$/),
          ),
        ),
        (parts) => {
          expect(checkTemplate('payment_received', parts.join(''))).toEqual([]);
        },
      ),
    );
  });
});

describe('renderTemplate', () => {
  it('fills each placeholder once; a value holding braces stays as written; a missing value is empty', () => {
    expect(renderTemplate('Dear {parent_name}, {student_name} {days}', { parent_name: 'Mr {school}', days: 3 })).toBe(
      'Dear Mr {school},  3',
    );
    expect(placeholdersIn('{a} {b} {a}')).toEqual(['a', 'b']);
  });

  it('a value never brings a control character in', () => {
    expect(renderTemplate('{student_name}!', { student_name: 'Ada\r\nObi\u0000' })).toBe('Ada  Obi !');
  });
});

describe('the API bodies', () => {
  it('a template body names each bad placeholder and refuses a huge one', () => {
    const r = noticeTemplateSchema('absent_today').safeParse({ sms_body: '{amount}', email_subject: 'x', email_body: 'y\u0000' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['sms_body', NOTICE_TEMPLATE_MESSAGES.unknownPlaceholder('amount', NOTICE_KIND_PLACEHOLDERS.absent_today)],
      ['email_body', 'The email must not contain control characters or text-direction overrides'],
    ]);
    const huge = noticeTemplateSchema('custom').safeParse({ sms_body: 'a'.repeat(919), email_subject: 's', email_body: 'b' });
    expect(huge.error?.issues[0]?.message).toBe('Must be at most 918 characters.');
  });

  it('a blast needs a body, a channel, and the arm or level its audience names', () => {
    expect(
      blastBodySchema.safeParse({ audience: { kind: 'all' }, body: 'PTA on Saturday, {parent_name}', channels: ['sms'] }).success,
    ).toBe(true);
    const bad = blastBodySchema.safeParse({ audience: { kind: 'arm' }, body: ' ', channels: [] });
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['audience.arm', 'body', 'channels']);
    const long = blastBodySchema.safeParse({ audience: { kind: 'level', level: 'JSS 1' }, body: 'a'.repeat(2000), channels: ['sms'] });
    expect(long.error?.issues.map((i) => i.path.join('.'))).toEqual(['body']);
    expect(
      blastBodySchema.safeParse({ audience: { kind: 'level', level: 'JSS 1' }, body: 'a'.repeat(2000), channels: ['email'] }).success,
    ).toBe(true);
    const unknown = blastBodySchema.safeParse({ audience: { kind: 'debtors' }, body: 'Pay {balance}', channels: ['sms'] });
    expect(unknown.error?.issues[0]?.message).toMatch(/\{balance\} is not a placeholder/);
  });
});

describe('values as notices write them', () => {
  it('amounts in NGN with kobo, days in words, children joined', () => {
    expect(noticeAmount(4_500_000)).toBe('NGN 45,000.00');
    expect(noticeAmount(5)).toBe('NGN 0.05');
    expect(noticeAmount(123_456_789)).toBe('NGN 1,234,567.89');
    expect(noticeAmount(-150_000)).toBe('-NGN 1,500.00');
    expect(noticeDate('2026-11-28')).toBe('28 Nov 2026');
    expect(noticeDate('2026-01-05T10:00:00Z')).toBe('5 Jan 2026');
    expect(joinNames(['Ada'])).toBe('Ada');
    expect(joinNames(['Ada', 'Chidi'])).toBe('Ada and Chidi');
    expect(joinNames(['Ada', 'Chidi', 'Emeka'])).toBe('Ada, Chidi and Emeka');
  });
});
