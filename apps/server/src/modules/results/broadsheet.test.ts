import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESULT_MESSAGES } from '@portal/domain';
import {
  createSession,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';

/**
 * The broadsheet: a class's (or the whole school's) scores with totals, averages and positions, as JSON and CSV.
 * Every test builds its own class in a session of its own (`rankedClass`), so each passes alone.
 */
describeEachDatabase('broadsheet', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
    staff = await signInStaff(ctx);
    await createSession(ctx.handle.db, '2025/2026', true);
    // The ranked class's level offers just the three subjects it has scores in.
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  afterAll(() => ctx.close());

  const { inject, newStudent, bulk, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );

  it('builds the broadsheet with totals, averages and positions, and exports it as CSV', async () => {
    const { session, sessionId, cls, mates } = await rankedClass();
    const res = await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
    expect(res.statusCode).toBe(200);
    const sheet = res.json();
    expect(sheet.session).toEqual({ id: sessionId, name: session.name });
    expect(sheet.classes).toHaveLength(1);
    const c = sheet.classes[0];
    expect(c.subjects).toEqual(['Mathematics', 'English Language', 'French']);
    expect(c.class_size).toBe(4);
    const row = c.rows.find((r: { admission_number: string }) => r.admission_number === mates[1]!.admissionNumber);
    expect(row).toMatchObject({
      scores: { Mathematics: 60, 'English Language': 80, French: null },
      total: 140,
      average: 70,
      position: 3,
    });
    expect(c.subject_stats.Mathematics).toEqual({ subject: 'Mathematics', count: 4, average: 71.25, highest: 90, lowest: 60 });

    const csv = await inject('GET', `/api/broadsheet/csv/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('Class,Admission number,Name,Mathematics,English Language,French,Total,Subjects taken,Average,Position,Out of');
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes(mates[1]!.admissionNumber))).toMatch(/,60,80,,140,2,70,3,4$/);

    // The whole school: every class with results that term, here JSS 1A and one JSS 2A student.
    const other = await newStudent('JSS 2A');
    await bulk(other.admissionNumber, 'JSS 2A', [{ name: 'French', score: 50 }], '1st', sessionId);
    const whole = (await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st`, admin.auth)).json();
    expect(whole.classes.length).toBeGreaterThan(1);
    const bad = await inject('GET', '/api/broadsheet/?session_id=1', staff.auth);
    expect(bad.json()).toEqual({ term: [RESULT_MESSAGES.termRequired] });
  });
});
