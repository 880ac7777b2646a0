import fc from 'fast-check';
import { expect, it } from 'vitest';
import { ADMISSION_TEXT_MAX, DEFAULT_ADMISSION_PAGE, type AdmissionPage } from '@portal/domain';
import { auditRow, describeEachDatabase, withAdmin, type SignedIn, type TestContext } from '../../../test/helpers';

describeEachDatabase('the admission page', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  withAdmin(dialect, (s) => ({ ctx, admin } = s));
  const read = async () => (await ctx.app.inject({ method: 'GET', url: '/api/admission/' })).json<AdmissionPage>();
  const save = (payload: object) => ctx.app.inject({ method: 'PUT', url: '/api/admission/', headers: admin.auth, payload });

  it('has a sensible default text on a new install, readable by anyone', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admission/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_ADMISSION_PAGE);
  });

  it('stores the admin’s text as plain text (markup kept as characters, line breaks kept), with an audit row', async () => {
    const page: AdmissionPage = {
      how_to_apply: 'Buy a form at the gate.\n\tReturn it by Friday.',
      requirements: '<script>alert(1)</script> <b>Birth certificate</b>',
      dates: 'Entrance exam: 14 June',
      fees: '₦5,000 form fee',
      contact: '',
    };
    const res = await save({ ...page, how_to_apply: `  ${page.how_to_apply}  ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(await read()).toEqual(page);
    expect(await auditRow(ctx, 'settings', 'admission_page', 'update')).toBeTruthy();
  });

  it('refuses control characters, direction overrides, huge input and missing sections, leaving the stored text as it was', async () => {
    const before = await read();
    const bad = [
      { ...before, dates: 'June\u0000' },
      { ...before, contact: 'Call \u202Eus' },
      { ...before, fees: '\u0007' },
      { ...before, requirements: 'x'.repeat(ADMISSION_TEXT_MAX + 1) },
      { ...before, how_to_apply: 'a'.repeat(1_000_000) },
      { how_to_apply: 'only one section' },
      { ...before, dates: 42 },
    ];
    for (const payload of bad) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    const longest = await save({ ...before, requirements: 'x'.repeat(ADMISSION_TEXT_MAX) });
    expect(longest.statusCode).toBe(200);
    await save(before);
    expect(await read()).toEqual(before);
  });

  it('fuzz: any text is either stored exactly (trimmed) or refused with a 400; never a 5xx', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('\u0000', '\uD800', '\u2028', '\u200B', '</p><img src=x onerror=alert(1)>', 'x'.repeat(ADMISSION_TEXT_MAX + 5)),
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ how_to_apply: text, requirements: text, dates: text, fees: text, contact: text }), async (page) => {
        const res = await save(page);
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 200) {
          const stored = await read();
          for (const key of Object.keys(page) as (keyof AdmissionPage)[]) expect(stored[key]).toBe(page[key].trim());
        }
      }),
      { numRuns: 40 },
    );
  });
});
