import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createSession, createStudent } from '../factories';
import '../../modules/results/card-pdfs.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The new tables take files (bytes back as sent), one per card and audience, one per arm; a student's go with the student. */
async function tablesWork(handle: DatabaseHandle, studentId: number, sessionId: number): Promise<void> {
  const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a]);
  const row = {
    student_id: studentId,
    session_id: sessionId,
    term: '1st',
    audience: 'staff',
    fingerprint: 'a'.repeat(64),
    pdf,
    bytes: pdf.length,
    rendered_at: '2026-11-29T10:00:00.000Z',
  };
  await handle.db.insertInto('report_card_pdfs').values(row).execute();
  await expect(handle.db.insertInto('report_card_pdfs').values(row).execute()).rejects.toThrow();
  await handle.db
    .insertInto('report_card_pdfs')
    .values({ ...row, audience: 'student' })
    .execute();
  const back = await handle.db.selectFrom('report_card_pdfs').select(['pdf', 'audience']).where('student_id', '=', studentId).execute();
  expect(back.map((r) => Buffer.from(r.pdf).equals(pdf))).toEqual([true, true]);
  const cls = {
    session_id: sessionId,
    term: '1st',
    student_class: 'JSS 1A',
    fingerprint: 'b'.repeat(64),
    pdf,
    bytes: pdf.length,
    rendered_at: row.rendered_at,
  };
  await handle.db.insertInto('report_class_pdfs').values(cls).execute();
  await expect(handle.db.insertInto('report_class_pdfs').values(cls).execute()).rejects.toThrow();
  await handle.db.deleteFrom('students').where('id', '=', studentId).execute();
  expect(await handle.db.selectFrom('report_card_pdfs').select('student_id').execute()).toEqual([]);
}

describe('migration 0045 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the stored PDFs tables', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const session = await createSession(handle.db, '2031/2032', false);
    const student = await createStudent(handle.db, {
      email: 'pdfup@test.school',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Obi',
      arm: 'JSS 1A',
    });
    await tablesWork(handle, student.id, session.id);
  });
});

describeEachDatabase('migration 0045 from 0044', (dialect) => {
  it('creates report_card_pdfs and report_class_pdfs, binary files keyed per card and per arm', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0044_table_change_notices', cleanups);
    await migrateToLatest(handle);
    const session = await createSession(handle.db, '2025/2026', true);
    const student = await createStudent(handle.db, {
      email: 'pdf@test.school',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Obi',
      arm: 'JSS 1A',
    });
    await tablesWork(handle, student.id, session.id);
  });
});
