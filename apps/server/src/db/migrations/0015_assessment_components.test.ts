import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ASSESSMENT_MESSAGES,
  describeScheme,
  SCHEME_CONFIRM_CODE,
  SCHEME_PRESETS,
  type AssessmentScheme,
  type Result,
} from '@portal/domain';
import { migrateToLatest, type DatabaseHandle } from '../index';
import { createResults, createSession } from '../factories';
import { describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/teaching/teaching.tables';

/** Tables whose rows the upgrade must keep, every one of them. */
const KEPT = upgrade.RELEASE_0014_TABLES;
const CA = SCHEME_PRESETS[0]!.components;

const cleanups = upgrade.cleanupsAfterEach();

/** The results of a session and level as stored: what a scheme change must never touch. */
const resultsOf = (handle: DatabaseHandle, sessionId: number, level: 'JSS' | 'SSS') =>
  handle.db
    .selectFrom('results')
    .select(['id', 'score', 'grade', 'components', 'version'])
    .where('session_id', '=', sessionId)
    .where('student_class', 'like', `${level}%`)
    .orderBy('id')
    .execute();

/**
 * The app on an upgraded database: both levels on the default scheme with every result counted as
 * entered by one score, an old result still PATCHed with `score`, and the admin moving the senior
 * classes to CA1/CA2/Exam after confirming, their old results keeping scores and grades.
 */
async function appWorksOn(handle: DatabaseHandle, sessionId: number, expected: { JSS: number; SSS: number }) {
  const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
  const schemes = async () => {
    const res = await app.inject({ method: 'GET', url: `/api/assessment-schemes/?session_id=${sessionId}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AssessmentScheme[]>();
  };
  expect(await schemes()).toEqual(
    (['JSS', 'SSS'] as const).map((level) =>
      expect.objectContaining({
        level,
        session_id: sessionId,
        components: [{ name: 'Score', label: 'Score', max: 100 }],
        is_default: true,
        component_results: 0,
        total_only_results: expected[level],
      }),
    ),
  );

  const junior = (await resultsOf(handle, sessionId, 'JSS'))[0]!;
  const patched = await app.inject({
    method: 'PATCH',
    url: `/api/results/${junior.id}/`,
    headers: auth,
    payload: { score: junior.score === 50 ? 51 : 50, reason: 'Checked after the upgrade' },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  expect(patched.json<Result>()).toMatchObject({ score: junior.score === 50 ? 51 : 50, components: null, version: junior.version + 1 });

  const before = await resultsOf(handle, sessionId, 'SSS');
  expect(before.length).toBe(expected.SSS);
  const put = (confirm?: boolean) =>
    app.inject({
      method: 'PUT',
      url: '/api/assessment-schemes/SSS/',
      headers: auth,
      payload: { session_id: sessionId, components: CA, ...(confirm ? { confirm } : {}) },
    });
  const asked = await put();
  expect(asked.statusCode).toBe(409);
  expect(asked.json()).toMatchObject({ code: SCHEME_CONFIRM_CODE, total_only_results: expected.SSS });
  const saved = await put(true);
  expect(saved.statusCode, saved.body).toBe(200);
  expect(await resultsOf(handle, sessionId, 'SSS')).toEqual(before);
  const after = Object.fromEntries((await schemes()).map((s) => [s.level, s]));
  expect(after.SSS).toMatchObject({ components: CA, is_default: false, component_results: 0, total_only_results: expected.SSS });
  expect(after.JSS!.is_default).toBe(true);

  // An old senior result now takes components (not a score alone); its total and grade follow them.
  const old = before[0]!;
  const alone = await app.inject({ method: 'PATCH', url: `/api/results/${old.id}/`, headers: auth, payload: { score: 40, reason: 'x' } });
  expect(alone.json()).toEqual({ score: [ASSESSMENT_MESSAGES.scoreNeedsComponents(describeScheme(CA))] });
  const byComponent = await app.inject({
    method: 'PATCH',
    url: `/api/results/${old.id}/`,
    headers: auth,
    payload: { components: { CA1: 20, CA2: 20, Exam: 36 }, reason: 'Entered by component' },
  });
  expect(byComponent.statusCode, byComponent.body).toBe(200);
  expect(byComponent.json<Result>()).toMatchObject({ score: 76, grade: 'A1', components: { CA1: 20, CA2: 20, Exam: 36 } });
}

describe('migration 0015 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, leaves every result entered as one score and no scheme set, and the app works on it', async () => {
    const handle = upgrade.databaseFromFixture('release-0014', cleanups);

    const before = await upgrade.countRows(handle, KEPT);
    expect(before).toMatchObject({ students: 72, results: 1530, staff: 33, class_arms: 18, teaching_assignments: 288 });
    const scores = await handle.db.selectFrom('results').select(['id', 'score', 'grade', 'version']).orderBy('id').execute();
    await migrateToLatest(handle);
    expect(await upgrade.countRows(handle, KEPT)).toEqual(before);
    expect(await handle.db.selectFrom('results').select(['id', 'score', 'grade', 'version']).orderBy('id').execute()).toEqual(scores);
    const withComponents = await sql<{ n: number }>`select
        (select count(*) from results where components is not null)
      + (select count(*) from result_audit where old_components is not null or new_components is not null) as n`.execute(handle.db);
    expect(Number(withComponents.rows[0]!.n)).toBe(0);
    expect(await upgrade.countRows(handle, ['assessment_schemes'])).toEqual({ assessment_schemes: 0 });

    const current = await handle.db.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirstOrThrow();
    await appWorksOn(handle, current.id, { JSS: 888, SSS: 642 });
  });
});

describeEachDatabase('migration 0015: results of the previous release stay one-score results', (dialect) => {
  it('adds the columns empty and no scheme, and the app works on it', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0014_teaching_structure', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const senior = await upgrade.oldStudent(handle, 'SSS 2A', 1);
    const junior = await upgrade.oldStudent(handle, 'JSS 1B', 2);
    await createResults(handle.db, [
      { studentId: senior.id, sessionId: session.id, term: '1st', arm: 'SSS 2A', subject: 'Mathematics', score: 66.5 },
      { studentId: senior.id, sessionId: session.id, term: '1st', arm: 'SSS 2A', subject: 'French', score: 39 },
      { studentId: junior.id, sessionId: session.id, term: '1st', arm: 'JSS 1B', subject: 'Mathematics', score: 50 },
    ]);
    const before = await handle.db.selectFrom('results').selectAll().orderBy('id').execute();
    await migrateToLatest(handle);
    expect(await handle.db.selectFrom('results').selectAll().orderBy('id').execute()).toEqual(
      before.map((r) => ({ ...r, components: null })),
    );
    expect(await upgrade.countRows(handle, ['assessment_schemes'])).toEqual({ assessment_schemes: 0 });
    await appWorksOn(handle, session.id, { JSS: 1, SSS: 2 });
  });
});
