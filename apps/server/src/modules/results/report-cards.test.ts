import { expect, it } from 'vitest';
import { RESULT_MESSAGES } from '@portal/domain';
import { withSchool, describeEachDatabase, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { pdfPageCount, pdfText } from '../../../test/pdf-text';
import { renderReportCards } from './pdf';

/**
 * Report cards: positions (ties share), class statistics, the third-term cumulative view, and the PDFs.
 * Every test builds its own class in a session of its own (`rankedClass`), so each passes alone.
 */
describeEachDatabase('report cards', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    // The ranked class's level offers just the three subjects it has scores in.
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });

  const { inject, newSession, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );

  it('builds a report card with positions (ties share), class statistics and the position out of N', async () => {
    const { session, sessionId, cls, student, mates } = await rankedClass({ admin, publish: ['1st'] });
    const res = await inject(
      'GET',
      `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${student.admissionNumber}`,
      student.auth,
    );
    expect(res.statusCode).toBe(200);
    const card = res.json();
    expect(card).toMatchObject({
      student: { admission_number: student.admissionNumber, first_name: 'Chiamaka', last_name: 'Obi', student_class: cls },
      session: { id: sessionId, name: session.name },
      term: '1st',
      term_label: 'First Term',
      total: 240,
      subjects_taken: 3,
      average: 80,
      position: 1,
      class_size: 4,
      position_text: '1st out of 4',
      class_average: 73.75,
      released: true,
      cumulative: null,
      school: { name: 'School portal', motto: 'raising role models' },
    });
    expect(card.subjects.map((s: { subject: string }) => s.subject)).toEqual(['Mathematics', 'English Language', 'French']);
    expect(card.subjects[0]).toEqual({
      subject: 'Mathematics',
      score: 90,
      components: null,
      absent: [],
      grade: 'A',
      remark: 'Excellent',
      teacher_remarks: '',
      position: 1,
      class_average: 71.25,
      class_highest: 90,
      class_lowest: 60,
    });
    // French: 80, 80, (missing), 65 -> positions 1, 1, 3 over the 3 who took it.
    expect(card.subjects[2]).toMatchObject({ subject: 'French', position: 1, class_average: 75, class_highest: 80, class_lowest: 65 });

    const tie = (
      await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[0]!.admissionNumber}`, admin.auth)
    ).json();
    expect(tie).toMatchObject({ position: 1, position_text: '1st out of 4', average: 80 });
    expect(tie.subjects.find((s: { subject: string }) => s.subject === 'French').position).toBe(1);
    // The one with a missing subject: average over the 2 taken (70), third.
    const third = (
      await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[1]!.admissionNumber}`, admin.auth)
    ).json();
    expect(third).toMatchObject({ total: 140, subjects_taken: 2, average: 70, position: 3, position_text: '3rd out of 4' });
    const last = (
      await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${mates[2]!.admissionNumber}`, admin.auth)
    ).json();
    expect(last.position_text).toBe('4th out of 4');

    const otherSessionId = (await newSession()).id;
    const none = await inject(
      'GET',
      `/api/report-card/?session_id=${otherSessionId}&term=1st&admission_number=${student.admissionNumber}`,
      staff.auth,
    );
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: RESULT_MESSAGES.noReportCard });
  });

  it('adds the cumulative view in the third term', async () => {
    const { sessionId, student } = await rankedClass({ admin, publish: ['1st', '2nd', '3rd'] });
    const card = (
      await inject('GET', `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`, student.auth)
    ).json();
    expect(card.cumulative).toEqual({
      terms: [
        { term: '1st', total: 240, average: 80, subjects_taken: 3 },
        { term: '2nd', total: 210, average: 70, subjects_taken: 3 },
        { term: '3rd', total: 255, average: 85, subjects_taken: 3 },
      ],
      annual_average: 78.33,
    });
    expect(card.subjects[0].term_scores).toEqual({ '1st': 90, '2nd': 80, '3rd': 95, average: 88.33 });
  });

  it('prints the report card as a PDF with the school and the student in it', async () => {
    const { session, sessionId, student } = await rankedClass({ admin, publish: ['1st', '2nd', '3rd'] });
    const res = await inject(
      'GET',
      `/api/report-card/pdf/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`,
      student.auth,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(
      `report-card-${student.admissionNumber}-${session.name.replace('/', '-')}-3rd.pdf`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPageCount(res.rawPayload)).toBe(1);

    const card = (
      await inject('GET', `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`, student.auth)
    ).json();
    const plain = await renderReportCards([{ ...card, school: { ...card.school, name: 'Ọmọ Naija College ₦' } }], { compress: false });
    const text = pdfText(plain);
    for (const s of [
      'Ọmọ Naija College ₦',
      'Chiamaka Obi',
      student.admissionNumber,
      '1st out of 4',
      'Mathematics',
      'Annual average: 78.33',
      'Third Term',
    ]) {
      expect(text).toContain(s);
    }
  });

  it('prints a whole class as one PDF, one page per student', async () => {
    const { sessionId, cls } = await rankedClass();
    const res = await inject('GET', `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=${cls}`, admin.auth);
    expect(res.statusCode).toBe(200);
    expect(pdfPageCount(res.rawPayload)).toBe(4);
    const json = (await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=1st&student_class=${cls}`, admin.auth)).json();
    expect(json.map((c: { position: number }) => c.position).sort()).toEqual([1, 1, 3, 4]);
    const text = pdfText(await renderReportCards(json, { compress: false }));
    for (const st of json) expect(text).toContain(`${st.student.first_name} ${st.student.last_name}`);
    const empty = await inject('GET', `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=SSS 3B`, admin.auth);
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toEqual({ detail: RESULT_MESSAGES.noStudentsFound });
  });
});
