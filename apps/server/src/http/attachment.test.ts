import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../lib/csv';
import { createSession, createTestContext, describeEachDatabase, signInAdmin, signInStudent, type TestContext } from '../../test/helpers';

describe('one CSV writer (lib/csv.ts)', () => {
  it('quotes what a spreadsheet would run as a formula, and nothing else', () => {
    for (const v of ['=1+1', '@SUM(A1)', '\tx', '\rx', '+cmd', '-cmd', '-1+2']) expect(csvCell(v)).toBe(`'${v}`);
    for (const v of ['Ada Eze', '+234 803 000 0000', '-12.5', 'STU-0001', '']) expect(csvCell(v)).toBe(v);
    expect(csvCell(-5)).toBe(-5);
    expect(csvCell(null)).toBe('');
  });

  it('starts with a byte order mark and writes the header row', () => {
    expect(toCsv([['Ada', 1]], ['name', 'n'])).toBe('\ufeffname,n\nAda,1\n');
  });
});

describeEachDatabase('every CSV download: one formula rule, a byte order mark, never cached', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  it('the payment report, the student export and the import template answer alike', async () => {
    const admin = await signInAdmin(ctx);
    await signInStudent(ctx, { firstName: '=HYPERLINK("x")', lastName: 'Eze', arm: 'JSS 1A' });
    for (const url of [
      '/api/payments/report/csv/?class=JSS%201A',
      '/api/students/export/?student_class=JSS%201A',
      '/api/students/import/template/',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: admin.auth });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/csv; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.headers['content-disposition'], url).toMatch(/^attachment; filename=".+\.csv"$/);
      expect(res.body.startsWith('\ufeff'), url).toBe(true);
      expect(res.body, url).not.toMatch(/(^|,)"?=HYPERLINK/m);
    }
  });
});
