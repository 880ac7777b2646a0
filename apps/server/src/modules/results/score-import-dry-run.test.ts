import { expect, it } from 'vitest';
import type { ScoreImportPreview } from '@portal/domain';
import { nowIso } from '../../db/index';
import { addStudent, describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { putSssScheme } from '../../../test/results-fixtures';

describeEachDatabase('the score CSV import', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    await putSssScheme(ctx.handle.db, sessionId);
    await ctx.handle.db.insertInto('class_arms').values({ level: 'SSS 1', arm: 'Q', name: 'SSS 1 Q', created_at: nowIso() }).execute();
  });

  it('is a dry run unless the caller says otherwise: a body without dry_run previews and saves nothing', async () => {
    const pupil = await addStudent(ctx, 'SSS 1 Q', 'Ada', 'Obi');
    const csv = `admission_number,CA1,CA2,Exam\n${pupil.admissionNumber},10,10,50\n`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/score-sheet/import/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', student_class: 'SSS 1 Q', subject: 'Mathematics', csv },
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<ScoreImportPreview>();
    expect(preview.applied).toBe(false);
    expect(preview.errors).toEqual([]);
    expect(preview.rows.map((r) => [r.line, r.admission_number, r.change, r.total])).toEqual([[2, pupil.admissionNumber, 'new', 70]]);
    const stored = await ctx.handle.db.selectFrom('results').select('id').where('student_id', '=', pupil.id).execute();
    expect(stored).toEqual([]);
  });
});
