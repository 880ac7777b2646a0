import { expect, it } from 'vitest';
import { RESULT_MESSAGES, type BroadsheetClass } from '@portal/domain';
import { broadsheetJson } from './broadsheet.service';
import { csvLines, withSchool, describeEachDatabase, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';

/**
 * The broadsheet: a class's (or the whole school's) scores with totals, averages and positions, as JSON and CSV.
 * Every test builds its own class in a session of its own (`rankedClass`), so each passes alone.
 */
describeEachDatabase('broadsheet', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    // The ranked class's level offers just the three subjects it has scores in.
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });

  const { inject, newStudent, bulk, rankedClass, asCurrent } = resultsKit(
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
    // The name as every screen writes it: first name first.
    expect(row.name).toMatch(/^Chidi L\d{3}$/);
    expect(c.subject_stats.Mathematics).toEqual({ subject: 'Mathematics', count: 4, average: 71.25, highest: 90, lowest: 60 });

    const csv = await inject('GET', `/api/broadsheet/csv/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csvLines(csv);
    expect(lines[0]).toBe('Class,Admission number,Name,Mathematics,English Language,French,Total,Subjects taken,Average,Position,Out of');
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes(mates[1]!.admissionNumber))).toMatch(/,60,80,,140,2,70,3,4$/);

    // The whole school: every class with results that term, here JSS 1A and one JSS 2A student.
    const other = await newStudent('JSS 2A');
    await asCurrent(sessionId, () => bulk(other.admissionNumber, 'JSS 2A', [{ name: 'French', score: 50 }], '1st', sessionId));
    const whole = (await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st`, admin.auth)).json();
    expect(whole.classes.length).toBeGreaterThan(1);
    // Streamed class by class, it is the same sheet: each class as its own broadsheet, the columns of them all.
    for (const c of whole.classes) {
      const one = (
        await inject('GET', `/api/broadsheet/?session_id=${sessionId}&term=1st&student_class=${c.student_class}`, admin.auth)
      ).json();
      expect(c).toEqual(one.classes[0]);
    }
    const columns = new Set(whole.classes.flatMap((c: BroadsheetClass) => c.subjects));
    expect(new Set(whole.subjects)).toEqual(columns);
    expect(whole.subjects).toHaveLength(columns.size);
    expect(whole.subjects.slice(0, 2)).toEqual(['Mathematics', 'English Language']);
    expect((await inject('GET', `/api/broadsheet/?session_id=999999&term=1st`, admin.auth)).statusCode).toBe(404);
    const bad = await inject('GET', '/api/broadsheet/?session_id=1', staff.auth);
    expect(bad.json()).toEqual({ term: [RESULT_MESSAGES.termRequired] });
  });
});

it('writes the streamed sheet as one JSON document, classes in the order they come, subjects last', async () => {
  const cls = (student_class: string, subjects: string[]) => ({ student_class, subjects, rows: [] }) as unknown as BroadsheetClass;
  async function* classes() {
    // As the service's batches: each class after a query.
    yield await Promise.resolve(cls('JSS 1A', ['Mathematics']));
    yield cls('JSS 1B', ['French', 'Mathematics']);
    yield cls('JSS 2A', ['Basic Science']);
  }
  let text = '';
  for await (const piece of broadsheetJson({
    session: { id: 1, name: '2025/2026' },
    term: '1st',
    classes: classes(),
    sortSubjects: (s) => [...s].sort(),
  }))
    text += piece;
  expect(JSON.parse(text)).toEqual({
    session: { id: 1, name: '2025/2026' },
    term: '1st',
    classes: [cls('JSS 1A', ['Mathematics']), cls('JSS 1B', ['French', 'Mathematics']), cls('JSS 2A', ['Basic Science'])],
    subjects: ['Basic Science', 'French', 'Mathematics'],
  });
});
