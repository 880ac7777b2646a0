import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from '../index';
import { createResults, createSession } from '../factories';
import { describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/teaching/teaching.tables';

/** Tables whose rows the upgrade must keep, every one of them. */
const KEPT = upgrade.RELEASE_0013_TABLES;

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0014 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, turns the classes into 12 arms and the subjects into a 14-subject catalogue offered at every level, and the app works on it', async () => {
    const handle = upgrade.databaseFromFixture('release-0013', cleanups);

    const before = await upgrade.countRows(handle, KEPT);
    expect(before.students).toBe(48);
    expect(before.results).toBe(1344);
    await migrateToLatest(handle);
    expect(await upgrade.countRows(handle, KEPT)).toEqual(before);
    const structure = await upgrade.countRows(handle, [
      'class_arms',
      'subjects',
      'level_subjects',
      'teaching_assignments',
      'session_teaching',
    ]);
    expect(structure).toEqual({ class_arms: 12, subjects: 14, level_subjects: 84, teaching_assignments: 0, session_teaching: 0 });
    // Every stored class and subject is now one of the school's.
    const orphans = await sql<{ n: number }>`select
        (select count(*) from students where student_class not in (select name from class_arms))
      + (select count(*) from results where student_class not in (select name from class_arms))
      + (select count(*) from results where subject not in (select name from subjects)) as n`.execute(handle.db);
    expect(Number(orphans.rows[0]!.n)).toBe(0);

    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const classes = await app.inject({ method: 'GET', url: '/api/classes/', headers: auth });
    expect(classes.statusCode).toBe(200);
    const arms = classes.json<{ name: string; students: number }[]>();
    expect(arms).toHaveLength(12);
    expect(arms.reduce((n, a) => n + a.students, 0)).toBe(48);

    const student = await handle.db
      .selectFrom('students')
      .select(['admission_number', 'student_class'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const session = await createSession(handle.db, '2031/2032', true);
    const saved = await app.inject({
      method: 'POST',
      url: '/api/results/',
      headers: auth,
      payload: {
        admission_number: student.admission_number,
        session_id: session.id,
        term: '1st',
        student_class: student.student_class,
        subjects: [{ name: 'Mathematics', score: 71 }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
  });
});

describeEachDatabase('migration 0014: classes and subjects found in the data join the lists', (dialect) => {
  const databaseAt0013 = () => upgrade.databaseAtMigration(dialect, '0013_people_student_status', cleanups);

  it('a class like "SSS 2 Gold" becomes an arm, "Geography" a subject offered at every level; a malformed class is left alone', async () => {
    const handle = await databaseAt0013();
    const session = await createSession(handle.db, '2025/2026', true);
    const gold = await upgrade.oldStudent(handle, 'SSS 2 Gold', 1);
    const c = await upgrade.oldStudent(handle, 'JSS 1C', 2);
    await upgrade.oldStudent(handle, 'Primary 4', 3);
    await createResults(handle.db, [
      { studentId: gold.id, sessionId: session.id, term: '1st', arm: 'SSS 2 Gold', subject: 'Geography', score: 66 },
      { studentId: c.id, sessionId: session.id, term: '1st', arm: 'JSS 1C', subject: 'Mathematics', score: 50 },
    ]);
    await migrateToLatest(handle);

    // 'Primary 4' is no class of a level; 0022 (decision 016) later gives it a retired arm of no level.
    const all = await handle.db.selectFrom('class_arms').select(['level', 'arm', 'name']).orderBy('name').execute();
    expect(all.filter((a) => a.level === '').map((a) => a.name)).toEqual(['Primary 4']);
    const arms = all.filter((a) => a.level !== '');
    expect(arms).toHaveLength(14);
    expect(arms).toContainEqual({ level: 'SSS 2', arm: 'Gold', name: 'SSS 2 Gold' });
    expect(arms).toContainEqual({ level: 'JSS 1', arm: 'C', name: 'JSS 1C' });
    expect(arms.map((a) => a.name)).not.toContain('Primary 4');
    const geo = await handle.db
      .selectFrom('subjects')
      .select(['id', 'name', 'section', 'retired'])
      .where('name', '=', 'Geography')
      .executeTakeFirstOrThrow();
    expect(geo).toMatchObject({ section: 'ALL', retired: 0 });
    const offered = await handle.db
      .selectFrom('level_subjects')
      .select(['class_level', 'compulsory'])
      .where('subject_id', '=', geo.id)
      .orderBy('class_level')
      .execute();
    expect(offered.map((o) => [o.class_level, Number(o.compulsory)])).toEqual(
      ['JSS 1', 'JSS 2', 'JSS 3', 'SSS 1', 'SSS 2', 'SSS 3'].map((l) => [l, 1]),
    );
    const results = await handle.db.selectFrom('results').select(['student_class', 'subject']).orderBy('id').execute();
    expect(results).toEqual([
      { student_class: 'SSS 2 Gold', subject: 'Geography' },
      { student_class: 'JSS 1C', subject: 'Mathematics' },
    ]);
    expect(await handle.db.selectFrom('students').select('stream_id').execute()).toEqual([
      { stream_id: null },
      { stream_id: null },
      { stream_id: null },
    ]);
  });
});
