// The people repository's queries of accounts (the users table, and students and staff inserted in
// batches with their accounts), as functions over a connection: `PeopleRepository` answers them with
// its database.
import type { NewAccount } from '@portal/domain';
import { nowIso, type Conn } from '../../db/index';
import type { StaffTable, StudentsTable } from '../../db/schema';
import { inSlices } from '../../db/slices';

/** Staff always have an email; a student may have none (null). */
export type NewUser = { role: 'staff' | 'student'; email: string | null; password_hash: string };
export type StudentValues = Omit<
  StudentsTable,
  'id' | 'user_id' | 'admission_number' | 'status' | 'withdrawn_at' | 'created_at' | 'updated_at'
>;
export type StaffValues = Omit<StaffTable, 'id' | 'user_id' | 'staff_id' | 'created_at' | 'updated_at'>;

/** Rows per multi-row INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const CHUNK = 1000;
/** Rows per INSERT of a bulk import, with a turn of the event loop between two. */
const INSERT_CHUNK = 250;

export async function accountsCreatedBetween(db: Conn, from: string, to: string, withStaff: boolean): Promise<NewAccount[]> {
  const students = await db
    .selectFrom('students as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.admission_number as public_id',
      's.first_name',
      's.last_name',
      'u.email',
      's.student_class as group',
      'u.created_at',
      'u.must_change_password',
    ])
    .where('u.created_at', '>=', from)
    .where('u.created_at', '<', to)
    .orderBy('u.created_at')
    .orderBy('s.id')
    .execute();
  const staff = withStaff
    ? await db
        .selectFrom('staff as st')
        .innerJoin('users as u', 'u.id', 'st.user_id')
        .select([
          'st.staff_id as public_id',
          'st.first_name',
          'st.last_name',
          'u.email',
          'st.designation as group',
          'u.created_at',
          'u.must_change_password',
        ])
        .where('u.created_at', '>=', from)
        .where('u.created_at', '<', to)
        .orderBy('u.created_at')
        .orderBy('st.id')
        .execute()
    : [];
  const shape =
    (kind: 'student' | 'staff') =>
    (r: (typeof students)[number]): NewAccount => ({
      kind,
      public_id: r.public_id,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      group: r.group,
      created_at: r.created_at,
      must_change_password: Number(r.must_change_password) === 1,
    });
  return [...students.map(shape('student')), ...staff.map(shape('staff'))];
}

export async function emailTaken(db: Conn, email: string, exceptUserId?: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .$if(exceptUserId !== undefined, (q) => q.where('id', '!=', exceptUserId!))
    .executeTakeFirst();
  return Boolean(row);
}

export async function existingEmails(db: Conn, emails: string[]): Promise<Set<string>> {
  const rows = await inSlices(emails, CHUNK, (slice) => db.selectFrom('users').select('email').where('email', 'in', slice).execute());
  return new Set(rows.flatMap((r) => (r.email !== null ? [r.email] : [])));
}

/** Inserts accounts that must change their password at first sign-in; returns their ids in input order. */
export async function insertUsers(trx: Conn, users: NewUser[]): Promise<number[]> {
  const now = nowIso();
  // Ids by position, not by email (students may have none): a multi-row INSERT numbers its rows
  // in VALUES order on both dialects, though RETURNING need not list them in that order.
  return inSlices(
    users,
    INSERT_CHUNK,
    async (slice) => {
      const rows = await trx
        .insertInto('users')
        .values(
          slice.map((u) => ({
            role: u.role,
            email: u.email,
            password_hash: u.password_hash,
            must_change_password: 1,
            disabled: 0,
            token_version: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute();
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },
    { yieldBetween: true },
  );
}

export async function insertStudents(trx: Conn, rows: { userId: number; admissionNumber: string; values: StudentValues }[]): Promise<void> {
  const now = nowIso();
  await inSlices(
    rows,
    INSERT_CHUNK,
    (slice) =>
      trx
        .insertInto('students')
        .values(
          slice.map((r) => ({ ...r.values, user_id: r.userId, admission_number: r.admissionNumber, created_at: now, updated_at: now })),
        )
        .execute(),
    { yieldBetween: true },
  );
}

export async function insertStaffMany(trx: Conn, rows: { userId: number; staffId: string; values: StaffValues }[]): Promise<void> {
  const now = nowIso();
  await inSlices(
    rows,
    INSERT_CHUNK,
    (slice) =>
      trx
        .insertInto('staff')
        .values(slice.map((r) => ({ ...r.values, user_id: r.userId, staff_id: r.staffId, created_at: now, updated_at: now })))
        .execute(),
    { yieldBetween: true },
  );
}

export async function setEmail(trx: Conn, userId: number, email: string | null): Promise<void> {
  await trx.updateTable('users').set({ email, updated_at: nowIso() }).where('id', '=', userId).execute();
}

/**
 * Sets a password someone else chose or generated: the holder must change it at next sign-in,
 * every access token issued before stops working and every refresh token is revoked.
 */
export async function setPasswordForced(trx: Conn, userId: number, passwordHash: string): Promise<void> {
  const now = nowIso();
  await trx
    .updateTable('users')
    .set((eb) => ({
      password_hash: passwordHash,
      must_change_password: 1,
      token_version: eb('token_version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', userId)
    .execute();
  await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Deletes the account; the profile, results, attendance and refresh tokens go with it (ON DELETE CASCADE). */
export async function deleteUser(trx: Conn, userId: number): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
