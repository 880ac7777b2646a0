import type { Conn } from '../../db/index';
import { sql, type RawBuilder, type SqlBool, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { NewAccount } from '@portal/domain';
import { readInSlices } from '../../lib/yield';
import { nowIso, Repository } from '../../db/index';
import type { Database, StaffTable, StudentStatus, StudentsTable, UsersTable } from '../../db/schema';
import { schoolSettingsIn } from '../settings/settings.service';
import * as accounts from './accounts.queries';
import { CHUNK, type NewProfile, type NewUser, type ProfileTable, type ProfileValues } from './accounts.queries';

/** A student row joined with the account's email, null when none (never the password hash). */
export type StudentRow = Omit<Selectable<StudentsTable>, 'created_at' | 'updated_at' | 'stream_id'> & { email: string | null };

/** A staff row joined with the account's email (never the password hash). */
export type StaffRow = Omit<Selectable<StaffTable>, 'created_at' | 'updated_at'> & { email: string };

export interface StudentFilters {
  sessionId?: number;
  term?: string;
  arm?: string;
  q?: string;
  /** Restrict to one account (a student caller). */
  userId?: number;
  /** 'active' (the default of the lists), 'withdrawn', or 'all'. */
  status?: StudentStatus | 'all';
}

const STUDENT_COLUMNS = [
  's.id',
  's.user_id',
  's.admission_number',
  's.first_name',
  's.last_name',
  'u.email',
  's.phone_number',
  's.gender',
  's.date_of_birth',
  's.student_class',
  's.fathers_name',
  's.fathers_phone',
  's.mothers_name',
  's.mothers_phone',
  's.home_address',
  's.status',
  's.withdrawn_at',
  's.graduated_at',
] as const;

const STAFF_COLUMNS = [
  'st.id',
  'st.user_id',
  'st.staff_id',
  'st.username',
  'st.first_name',
  'st.last_name',
  'u.email',
  'st.phone_number',
  'st.gender',
  'st.designation',
  'st.department',
  'st.marital_status',
  'st.qualifications',
  'st.employment_date',
  'st.bank_account',
  'st.tax_id',
] as const;

/** `%term%` for LIKE, with the wildcards in the term escaped. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A list's search: rows where any of `texts` (SQL expressions) contains `q`, whatever the case. */
function containing(q: string, texts: RawBuilder<unknown>[]) {
  const pattern = likePattern(q);
  return sql<SqlBool>`(${sql.join(
    texts.map((text) => sql`lower(${text}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

/** One page of a list: `limit` rows from `offset`, either optional (an offset alone runs to the end). */
function page<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, limit?: number, offset?: number) {
  const limited = limit !== undefined ? q.limit(limit) : q;
  if (offset === undefined || offset <= 0) return limited;
  // SQLite takes an OFFSET only after a LIMIT.
  return (limit === undefined ? limited.limit(2147483647) : limited).offset(offset);
}

/** SQL of the people feature: students, staff and their accounts. */
export class PeopleRepository extends Repository {
  /** The school's name, which no password may contain (ASVS 6.2.11). */
  async schoolName(): Promise<string> {
    return (await schoolSettingsIn(this.db)).school_name;
  }

  // ---- students -------------------------------------------------------------------------------

  private students(db: Conn = this.db) {
    return db.selectFrom('students as s').innerJoin('users as u', 'u.id', 's.user_id').select(STUDENT_COLUMNS);
  }

  private filterStudents<O>(query: SelectQueryBuilder<Database & { s: StudentsTable; u: UsersTable }, 's' | 'u', O>, f: StudentFilters) {
    let q = query;
    if (f.userId !== undefined) q = q.where('s.user_id', '=', f.userId);
    if (f.status !== undefined && f.status !== 'all') q = q.where('s.status', '=', f.status);
    if (f.sessionId !== undefined || f.term !== undefined) {
      // Students with results in that session/term; the class filter then means the class they were in.
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('results as r')
            .select('r.id')
            .whereRef('r.student_id', '=', 's.id')
            .$if(f.sessionId !== undefined, (w) => w.where('r.session_id', '=', f.sessionId!))
            .$if(f.term !== undefined, (w) => w.where('r.term', '=', f.term!))
            .$if(f.arm !== undefined, (w) => w.where('r.student_class', '=', f.arm!)),
        ),
      );
    } else if (f.arm !== undefined) {
      q = q.where('s.student_class', '=', f.arm);
    }
    if (f.q) {
      q = q.where(
        containing(f.q, [
          sql`s.first_name || ' ' || s.last_name`,
          sql`s.last_name || ' ' || s.first_name`,
          sql`s.admission_number`,
          sql`u.email`,
        ]),
      );
    }
    return q;
  }

  listStudents(f: StudentFilters, limit?: number, offset?: number): Promise<StudentRow[]> {
    return this.filterStudents(this.students(), f)
      .orderBy('s.student_class')
      .orderBy('s.last_name')
      .orderBy('s.first_name')
      .orderBy('s.id')
      .$call((q) => page(q, limit, offset))
      .execute();
  }

  /**
   * `listStudents(f)` for the export (a heavy report) read in slices: the ids in the list's order
   * first, then the rows of a few hundred ids at a time, in the same order.
   */
  async listStudentsInSlices(f: StudentFilters): Promise<StudentRow[]> {
    const ids = await this.filterStudents(
      this.db.selectFrom('students as s').innerJoin('users as u', 'u.id', 's.user_id').select('s.id'),
      f,
    )
      .orderBy('s.student_class')
      .orderBy('s.last_name')
      .orderBy('s.first_name')
      .orderBy('s.id')
      .execute();
    return readInSlices(
      ids.map((r) => r.id),
      (slice) => this.filterStudents(this.students(), f).where('s.id', 'in', slice).execute(),
      (r) => r.id,
    );
  }

  async countStudents(f: StudentFilters): Promise<number> {
    const q = this.db.selectFrom('students as s').innerJoin('users as u', 'u.id', 's.user_id');
    const row = await this.filterStudents(
      q.select((eb) => eb.fn.countAll<number>().as('n')),
      f,
    ).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  findStudentByAdmission(admissionNumber: string, db: Conn = this.db): Promise<StudentRow | undefined> {
    return this.students(db).where('s.admission_number', '=', admissionNumber).executeTakeFirst();
  }

  /** The student's report card photo (a data URL), or '' when none was uploaded. */
  async photoOf(studentId: number): Promise<string> {
    const row = await this.db.selectFrom('student_photos').select('photo').where('student_id', '=', studentId).executeTakeFirst();
    return row?.photo ?? '';
  }

  /** Whether the student has a photo, read inside the caller's transaction (for its audit row). */
  async hasPhoto(trx: Conn, studentId: number): Promise<boolean> {
    return !!(await trx.selectFrom('student_photos').select('student_id').where('student_id', '=', studentId).executeTakeFirst());
  }

  /** Puts the student's photo (replacing any), or removes it when `photo` is ''. */
  async putPhoto(trx: Conn, studentId: number, photo: string, actorId: number): Promise<void> {
    if (!photo) {
      await trx.deleteFrom('student_photos').where('student_id', '=', studentId).execute();
      return;
    }
    const row = { photo, updated_by: actorId, updated_at: nowIso() };
    await trx
      .insertInto('student_photos')
      .values({ student_id: studentId, ...row })
      .onConflict((oc) => oc.column('student_id').doUpdateSet(row))
      .execute();
  }

  findStudentById(id: number, db: Conn = this.db): Promise<StudentRow | undefined> {
    return this.students(db).where('s.id', '=', id).executeTakeFirst();
  }

  /** Results and payments of a student: what a delete would remove or unlink (the confirmation screen). */
  async countStudentHistory(studentId: number): Promise<{ results: number; payments: number }> {
    const [r, p] = await Promise.all([
      this.db
        .selectFrom('results')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('student_id', '=', studentId)
        .executeTakeFirst(),
      this.db
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('student_id', '=', studentId)
        .executeTakeFirst(),
    ]);
    return { results: Number(r?.n ?? 0), payments: Number(p?.n ?? 0) };
  }

  /** Withdraws or readmits: the record's status, and the account's sign-in with it. */
  async setStudentStatus(trx: Conn, row: { id: number; user_id: number }, status: StudentStatus): Promise<void> {
    const now = nowIso();
    await trx
      .updateTable('students')
      .set({ status, withdrawn_at: status === 'withdrawn' ? now : null, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    if (status === 'withdrawn') {
      // Sign-in off: the account is disabled, every token issued stops working.
      await trx
        .updateTable('users')
        .set((eb) => ({ disabled: 1, token_version: eb('token_version', '+', 1), updated_at: now }))
        .where('id', '=', row.user_id)
        .execute();
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', row.user_id)
        .where('revoked_at', 'is', null)
        .execute();
    } else {
      await trx.updateTable('users').set({ disabled: 0, updated_at: now }).where('id', '=', row.user_id).execute();
    }
  }

  async countStudentRecords(trx: Conn, studentId: number): Promise<{ results: number; attendance: number }> {
    const r = await trx
      .selectFrom('results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    const a = await trx
      .selectFrom('attendance')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    return { results: Number(r?.n ?? 0), attendance: Number(a?.n ?? 0) };
  }

  // ---- staff ----------------------------------------------------------------------------------

  private staffQuery(db: Conn = this.db) {
    // A staff account always has an email (the staff schemas require one; only students may lack it).
    return db
      .selectFrom('staff as st')
      .innerJoin('users as u', 'u.id', 'st.user_id')
      .select(STAFF_COLUMNS)
      .$narrowType<{ email: string }>();
  }

  listStaff(q?: string, limit?: number, offset?: number): Promise<StaffRow[]> {
    return this.staffQuery()
      .$if(Boolean(q), (w) => w.where(containing(q!, [sql`st.first_name || ' ' || st.last_name`, sql`st.staff_id`, sql`u.email`])))
      .orderBy('st.last_name')
      .orderBy('st.first_name')
      .orderBy('st.id')
      .$call((w) => page(w, limit, offset))
      .execute();
  }

  findStaffByStaffId(staffId: string, db: Conn = this.db): Promise<StaffRow | undefined> {
    return this.staffQuery(db).where('st.staff_id', '=', staffId).executeTakeFirst();
  }

  findStaffById(id: number, db: Conn = this.db): Promise<StaffRow | undefined> {
    return this.staffQuery(db).where('st.id', '=', id).executeTakeFirst();
  }

  /** Staff members by internal id, for other modules' pickers and checks (id, public id, name). */
  staffByIds(ids: readonly number[], db: Conn = this.db) {
    if (!ids.length) return Promise.resolve([]);
    return db
      .selectFrom('staff')
      .select(['id', 'staff_id', 'first_name', 'last_name'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async usernameTaken(username: string, exceptStaffId?: number, db: Conn = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('staff')
      .select('id')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .$if(exceptStaffId !== undefined, (q) => q.where('id', '!=', exceptStaffId!))
      .executeTakeFirst();
    return Boolean(row);
  }

  async existingUsernames(usernames: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < usernames.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('staff')
        .select(sql<string>`lower(username)`.as('u'))
        .where(
          sql`lower(username)`,
          'in',
          usernames.slice(i, i + CHUNK).map((u) => u.toLowerCase()),
        )
        .execute();
      for (const r of rows) out.add(r.u);
    }
    return out;
  }

  // ---- accounts (queries: accounts.queries.ts) ---------------------------------------------------

  accountsCreatedBetween(from: string, to: string, withStaff: boolean): Promise<NewAccount[]> {
    return accounts.accountsCreatedBetween(this.db, from, to, withStaff);
  }

  emailTaken(email: string, exceptUserId?: number, db: Conn = this.db): Promise<boolean> {
    return accounts.emailTaken(db, email, exceptUserId);
  }

  existingEmails(emails: string[]): Promise<Set<string>> {
    return accounts.existingEmails(this.db, emails);
  }

  insertUsers(trx: Conn, users: NewUser[]): Promise<number[]> {
    return accounts.insertUsers(trx, users);
  }

  /** Inserts students' or staff members' profiles for their new accounts; their ids in input order. */
  insertProfiles<T extends ProfileTable>(trx: Conn, table: T, profiles: NewProfile<T>[]): Promise<number[]> {
    return accounts.insertProfiles(trx, table, profiles);
  }

  updateProfile<T extends ProfileTable>(trx: Conn, table: T, id: number, values: Partial<ProfileValues[T]>): Promise<void> {
    return accounts.updateProfile(trx, table, id, values);
  }

  setEmail(trx: Conn, userId: number, email: string | null): Promise<void> {
    return accounts.setEmail(trx, userId, email);
  }

  setPasswordForced(trx: Conn, userId: number, passwordHash: string): Promise<void> {
    return accounts.setPasswordForced(trx, userId, passwordHash);
  }

  deleteUser(trx: Conn, userId: number): Promise<void> {
    return accounts.deleteUser(trx, userId);
  }
}
