import type { Conn } from '../../db/index';
import { PEOPLE_MESSAGES } from '@portal/domain';
import { conflict } from '../../http/errors';

/**
 * A withdrawn student's record is read-only: other features that write for a
 * student (results) call this inside their transaction before writing.
 */
export async function assertStudentActive(conn: Conn, studentId: number): Promise<void> {
  const row = await conn.selectFrom('students').select('status').where('id', '=', studentId).executeTakeFirst();
  if (row?.status === 'withdrawn') throw conflict(PEOPLE_MESSAGES.studentWithdrawn);
}
