// The people repository's queries of accounts (the users table, and students and staff inserted in
// batches with their accounts), as functions over a connection: `PeopleRepository` answers them with
// its database.
import { sql, type Insertable } from 'kysely';
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

/** The profile tables beside `users`, by the column of their public id: a student's admission number, a staff id. */
const PUBLIC_ID = { students: 'admission_number', staff: 'staff_id' } as const;
export type ProfileTable = keyof typeof PUBLIC_ID;
/** What a profile holds besides its account, public id and stamps, by table. */
export type ProfileValues = { students: StudentValues; staff: StaffValues };
/** A profile to insert for an account: `publicId` is the student's admission number or the staff id. */
export type NewProfile<T extends ProfileTable> = { userId: number; publicId: string; values: ProfileValues[T] };

/** The accounts created in [from, to) with a profile in `table`, oldest first, as their sign-in slips list them. */
async function accountsOf(db: Conn, table: ProfileTable, from: string, to: string): Promise<NewAccount[]> {
  // `p` is either profile table: both have the name, account and id columns read here.
  const rows = await db
    .selectFrom(`${table} as p` as 'students as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      sql.ref<string>(`p.${PUBLIC_ID[table]}`).as('public_id'),
      'p.first_name',
      'p.last_name',
      'u.email',
      sql.ref<string>(table === 'students' ? 'p.student_class' : 'p.designation').as('group'),
      'u.created_at',
      'u.must_change_password',
    ])
    .where('u.created_at', '>=', from)
    .where('u.created_at', '<', to)
    .orderBy('u.created_at')
    .orderBy('p.id')
    .execute();
  const kind = table === 'students' ? 'student' : 'staff';
  return rows.map((r) => ({ kind, ...r, must_change_password: Number(r.must_change_password) === 1 }));
}

export async function accountsCreatedBetween(db: Conn, from: string, to: string, withStaff: boolean): Promise<NewAccount[]> {
  const students = await accountsOf(db, 'students', from, to);
  return withStaff ? [...students, ...(await accountsOf(db, 'staff', from, to))] : students;
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

/**
 * Inserts `rows` by `insert` in slices, with a turn of the event loop between two, and returns their
 * ids in input order: a multi-row INSERT numbers its rows in VALUES order on both dialects, though
 * RETURNING need not list them in that order. (Ids by position, not by email: students may have none.)
 */
async function insertReturningIds<T>(rows: readonly T[], insert: (slice: T[]) => Promise<{ id: number }[]>): Promise<number[]> {
  return inSlices(rows, INSERT_CHUNK, async (slice) => (await insert(slice)).map((r) => r.id).sort((a, b) => a - b), {
    yieldBetween: true,
  });
}

/** Inserts accounts that must change their password at first sign-in; returns their ids in input order. */
export async function insertUsers(trx: Conn, users: NewUser[]): Promise<number[]> {
  const now = nowIso();
  return insertReturningIds(users, (slice) =>
    trx
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
      .execute(),
  );
}

/** Inserts the profiles (students or staff) of new accounts; returns their ids in input order. */
export async function insertProfiles<T extends ProfileTable>(trx: Conn, table: T, profiles: NewProfile<T>[]): Promise<number[]> {
  const now = nowIso();
  const stamps = { created_at: now, updated_at: now };
  return insertReturningIds(profiles, (slice) =>
    trx
      // Either table in one statement: the signature ties each profile's values to `table`.
      .insertInto(table as 'students')
      .values(
        slice.map((p) => ({ ...p.values, user_id: p.userId, [PUBLIC_ID[table]]: p.publicId, ...stamps }) as Insertable<StudentsTable>),
      )
      .returning('id')
      .execute(),
  );
}

/** Changes the profile fields sent of one student or staff member (none sent: no statement). */
export async function updateProfile<T extends ProfileTable>(
  trx: Conn,
  table: T,
  id: number,
  values: Partial<ProfileValues[T]>,
): Promise<void> {
  if (!Object.keys(values).length) return;
  await trx
    .updateTable(table as 'students')
    .set({ ...(values as Partial<StudentValues>), updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
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

/** Which of these admission numbers some student already holds (looked up in slices of `CHUNK`). */
export async function takenAdmissionNumbers(conn: Conn, candidates: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const rows = await conn
      .selectFrom('students')
      .select('admission_number')
      .where('admission_number', 'in', candidates.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) taken.add(r.admission_number);
  }
  return taken;
}
