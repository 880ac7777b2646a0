import {
  PEOPLE_MESSAGES,
  STUDENT_CSV_COLUMNS,
  type PasswordResetResponse,
  type StudentCreate,
  type StudentHistory,
  type StudentListQuery,
  type StudentPage,
  type StudentRecord,
  type StudentRegistration,
  type StudentUpdate,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { mapInSlices } from '../../lib/yield';
import type { SchoolTime } from '../calendar/school-time.service';
import { nextAdmissionNumbers } from './admission-numbers';
import { refusePersonDatesAfterToday } from './person-dates';
import { resetToOneTimePassword } from './one-time-passwords';
import { editedPasswordHash, newAccountPassword } from './account-passwords';
import { personUpdateAudit, auditStudent, presentLegacyStudent, presentStudent } from './people.presenters';
import { isUniqueViolation } from '../../db/errors';
import type { PeopleRepository, StudentFilters, StudentRow } from './people.repository';
import type { StudentValues } from './accounts.queries';
import type { Conn } from '../../db/index';
import { outOfScope, type AccessScope } from '../access/scope.service';

export { STUDENT_COUNTER } from './admission-numbers';

/**
 * What people asks of the school's arms (teaching's): handed in by the composition root (app.ts),
 * so that people imports nothing of teaching, which reads people's staff and students.
 */
export interface SchoolClasses {
  /** The arms' names (current ones). */
  classNames(): Promise<string[]>;
  /** Refuses (400) a name that is not one of the arms. */
  assertClass(name: string, opts: { current?: boolean; unknownMessage?: string }): Promise<void>;
}

const emailTaken = () => badRequest({ email: [PEOPLE_MESSAGES.emailTaken] });

/**
 * Files kept for a student elsewhere (results' stored report-card PDFs): dropped in the withdrawal's
 * transaction, so a student who leaves takes no stored files with them (a port: people imports nothing of results).
 */
export interface StudentStoredFiles {
  forgetStudent(conn: Conn, studentId: number): Promise<void>;
}

/**
 * Links students to their parents from the father's and mother's phones of their records, inside the
 * saving transaction (issue 33, decision 035). Declared here, answered by the parents module's
 * `ParentLinking` (a layer above people) in the composition root.
 */
export interface StudentParentLinks {
  linkStudents(
    conn: Conn,
    students: readonly {
      id: number;
      first_name?: string;
      last_name?: string;
      fathers_name: string;
      fathers_phone: string;
      mothers_name: string;
      mothers_phone: string;
    }[],
    source: 'student_form' | 'import',
  ): Promise<void>;
}

/** Rules of the student records: who may see and change what, and the transactions. */
export class StudentsService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly teaching: SchoolClasses,
    private readonly scope: AccessScope,
    private readonly time: Pick<SchoolTime, 'year' | 'today'>,
    private readonly parentLinks?: StudentParentLinks,
    private readonly storedFiles?: StudentStoredFiles,
  ) {}

  /** A new student, or a move, goes only into one of the school's current arms. */
  private assertCurrentClass(name: string): Promise<void> {
    return this.teaching.assertClass(name, { current: true, unknownMessage: PEOPLE_MESSAGES.invalidClass });
  }

  private async filters(actor: AuthUser, q: StudentListQuery): Promise<StudentFilters> {
    const scope = await this.scope.scopeOf(actor, 'records');
    // A student only ever sees their own record, whatever the filters say.
    if (scope.kind === 'self') return { userId: scope.userId };
    // (A reach over some students only, a parent's, needs its filter here first.)
    if (scope.kind !== 'all') throw outOfScope(actor, 'records');
    // Class lists leave withdrawn students out unless asked for; their history stays.
    return { sessionId: q.session_id, term: q.term, arm: q.student_class, q: q.q, status: q.status ?? 'active' };
  }

  async list(actor: AuthUser, q: StudentListQuery): Promise<StudentRecord[]> {
    const rows = await this.repo.listStudents(await this.filters(actor, q), q.limit, q.offset);
    return rows.map(presentStudent);
  }

  /** A page plus the total, for the paged screens. */
  async search(actor: AuthUser, q: StudentListQuery): Promise<StudentPage> {
    const f = await this.filters(actor, q);
    const [rows, count] = await Promise.all([this.repo.listStudents(f, q.limit ?? 100, q.offset), this.repo.countStudents(f)]);
    return { count, results: rows.map(presentStudent) };
  }

  async exportRows(actor: AuthUser, q: StudentListQuery): Promise<StudentRecord[]> {
    return mapInSlices(await this.repo.listStudentsInSlices(await this.filters(actor, q)), presentStudent);
  }

  private async load(admissionNumber: string): Promise<StudentRow> {
    const row = await this.repo.findStudentByAdmission(admissionNumber.toUpperCase());
    if (!row) throw notFound(PEOPLE_MESSAGES.studentNotFound);
    return row;
  }

  private assertCanRead(actor: AuthUser, row: StudentRow): Promise<void> {
    return this.scope.assertStudent(actor, row, 'records');
  }

  async get(actor: AuthUser, admissionNumber: string): Promise<StudentRecord> {
    const row = await this.load(admissionNumber);
    await this.assertCanRead(actor, row);
    // One student's detail carries the photo (the update page and the bio data show it); lists do not.
    return { ...presentStudent(row), photo: await this.repo.photoOf(row.id) };
  }

  async getLegacy(actor: AuthUser, id: number) {
    const row = await this.repo.findStudentById(id);
    if (!row) throw notFound(PEOPLE_MESSAGES.studentNotFound);
    await this.assertCanRead(actor, row);
    return presentLegacyStudent(row);
  }

  async create(actor: AuthUser, input: StudentCreate): Promise<StudentRegistration> {
    await refusePersonDatesAfterToday(this.time, input);
    await this.assertCurrentClass(input.student_class);
    if (input.email !== null && (await this.repo.emailTaken(input.email))) throw emailTaken();
    const { password, passwordHash, generated } = await newAccountPassword(this.repo, input);
    try {
      const row = await this.repo.transaction(async (trx) => {
        const [userId] = await this.repo.insertUsers(trx, [{ role: 'student', email: input.email, password_hash: passwordHash }]);
        const [admissionNumber] = (await nextAdmissionNumbers(trx, 1, this.time)) as [string];
        await this.repo.insertProfiles(trx, 'students', [{ userId: userId!, publicId: admissionNumber, values: studentValues(input) }]);
        const created = (await this.repo.findStudentByAdmission(admissionNumber, trx))!;
        await this.parentLinks?.linkStudents(trx, [created], 'student_form');
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'create',
          entity: 'student',
          entityId: admissionNumber,
          after: auditStudent(created),
        });
        return created;
      });
      return { ...presentStudent(row), must_change_password: true, ...(generated ? { one_time_password: password } : {}) };
    } catch (err) {
      if (isUniqueViolation(err, 'email')) throw emailTaken();
      throw err;
    }
  }

  async update(actor: AuthUser, admissionNumber: string, input: StudentUpdate): Promise<StudentRecord> {
    await refusePersonDatesAfterToday(this.time, input);
    const before = await this.load(admissionNumber);
    refuseLeft(before);
    if (input.student_class !== undefined && input.student_class !== before.student_class)
      await this.assertCurrentClass(input.student_class);
    // Absent: kept; null: cleared (a student needs none: they sign in with their admission number).
    const emailChanged = input.email !== undefined && input.email !== before.email;
    if (emailChanged && input.email !== null && (await this.repo.emailTaken(input.email!, before.user_id))) throw emailTaken();
    const passwordHash = await editedPasswordHash(this.repo, input, before.email);
    try {
      const after = await this.repo.transaction(async (trx) => {
        const values: Partial<StudentValues> = {};
        // Every field of the record but the email, which belongs to the account and is set below.
        const keys = STUDENT_CSV_COLUMNS.filter((k): k is Exclude<typeof k, 'email'> => k !== 'email');
        for (const k of keys) if (input[k] !== undefined) (values as Record<string, unknown>)[k] = input[k];
        await this.repo.updateProfile(trx, 'students', before.id, values);
        if (emailChanged) await this.repo.setEmail(trx, before.user_id, input.email ?? null);
        if (passwordHash) await this.repo.setPasswordForced(trx, before.user_id, passwordHash);
        const row = (await this.repo.findStudentById(before.id, trx))!;
        await this.parentLinks?.linkStudents(trx, [row], 'student_form');
        await writeAudit(
          trx,
          personUpdateAudit(actor.id, 'student', before.admission_number, auditStudent(before), auditStudent(row), !!passwordHash),
        );
        return row;
      });
      return presentStudent(after);
    } catch (err) {
      if (isUniqueViolation(err, 'email')) throw emailTaken();
      throw err;
    }
  }

  /** Deletes the student's account, profile, results and attendance in one transaction, audited. */
  async delete(actor: AuthUser, admissionNumber: string): Promise<void> {
    const row = await this.load(admissionNumber);
    await this.deleteRow(actor, row);
  }

  async deleteLegacy(actor: AuthUser, id: number): Promise<void> {
    const row = await this.repo.findStudentById(id);
    if (!row) throw notFound(PEOPLE_MESSAGES.studentNotFound);
    await this.deleteRow(actor, row);
  }

  private async deleteRow(actor: AuthUser, row: StudentRow): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const counts = await this.repo.countStudentRecords(trx, row.id);
      await this.repo.deleteUser(trx, row.user_id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'delete',
        entity: 'student',
        entityId: row.admission_number,
        before: { ...auditStudent(row), deleted_results: counts.results, deleted_attendance: counts.attendance },
      });
    });
  }

  /** What a delete would remove: with results or payments, the screens offer withdrawing first. */
  async history(admissionNumber: string): Promise<StudentHistory> {
    const row = await this.load(admissionNumber);
    return this.repo.countStudentHistory(row.id);
  }

  /**
   * Withdraws a student who leaves: record, results and payments are kept; the
   * record is read-only, the account cannot sign in and the class lists leave the student out.
   */
  async withdraw(actor: AuthUser, admissionNumber: string): Promise<StudentRecord> {
    return this.changeStatus(actor, admissionNumber, 'withdrawn');
  }

  /** Undoes a withdrawal: the record is editable again and the account can sign in. */
  async readmit(actor: AuthUser, admissionNumber: string): Promise<StudentRecord> {
    return this.changeStatus(actor, admissionNumber, 'active');
  }

  private async changeStatus(actor: AuthUser, admissionNumber: string, status: 'active' | 'withdrawn'): Promise<StudentRecord> {
    const before = await this.load(admissionNumber);
    // Alumni are neither withdrawn nor readmitted here: promotion (and its undo) moves them.
    if (before.status === 'graduated') throw conflict(PEOPLE_MESSAGES.studentGraduated);
    if (before.status === status) {
      throw conflict(status === 'withdrawn' ? PEOPLE_MESSAGES.studentAlreadyWithdrawn : PEOPLE_MESSAGES.studentNotWithdrawn);
    }
    const after = await this.repo.transaction(async (trx) => {
      await this.repo.setStudentStatus(trx, before, status);
      if (status === 'withdrawn') await this.storedFiles?.forgetStudent(trx, before.id);
      const row = (await this.repo.findStudentById(before.id, trx))!;
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: status === 'withdrawn' ? 'withdraw' : 'readmit',
        entity: 'student',
        entityId: before.admission_number,
        before: { status: before.status },
        after: { status: row.status, withdrawn_at: row.withdrawn_at },
      });
      return row;
    });
    return presentStudent(after);
  }

  /** A new one-time password: the student must change it at next sign-in; their sessions end. */
  async resetPassword(actor: AuthUser, admissionNumber: string): Promise<PasswordResetResponse> {
    const row = await this.load(admissionNumber);
    refuseLeft(row);
    return resetToOneTimePassword(this.repo, actor, { userId: row.user_id, entity: 'student', entityId: row.admission_number });
  }
}

/** A withdrawn or graduated (alumni) student's record is read-only: 409 with the status's message. */
function refuseLeft(row: { status: string }): void {
  if (row.status === 'withdrawn') throw conflict(PEOPLE_MESSAGES.studentWithdrawn);
  if (row.status === 'graduated') throw conflict(PEOPLE_MESSAGES.studentGraduated);
}

export function studentValues(input: StudentCreate): StudentValues {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    phone_number: input.phone_number,
    gender: input.gender ?? null,
    date_of_birth: input.date_of_birth,
    student_class: input.student_class,
    fathers_name: input.fathers_name,
    fathers_phone: input.fathers_phone ?? '',
    mothers_name: input.mothers_name ?? '',
    mothers_phone: input.mothers_phone ?? '',
    home_address: input.home_address,
  };
}
