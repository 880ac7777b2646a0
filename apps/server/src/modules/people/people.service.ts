import { personName } from '@portal/domain';
import type { StudentStatus } from '../../db/schema';
import type { Conn } from '../../db/index';
import type { PeopleRepository } from './people.repository';
import type { ClassHistoryRepository, EnrolmentRow, RosterStudent, StudentMove } from './class-history.repository';

/** A student as other modules need them: internal id, class and status. */
export interface StudentRef {
  id: number;
  admission_number: string;
  student_class: string;
  status: StudentStatus;
}

/** A staff member as other modules show them: internal id, public staff id and name. */
export interface StaffRef {
  id: number;
  staff_id: string;
  name: string;
}

/**
 * Reads of people that other modules need (the teaching structure checks students and staff):
 * they go through here, never through the people repository.
 */
export class PeopleLookups {
  constructor(private readonly repo: PeopleRepository) {}

  async studentByAdmission(admissionNumber: string, conn?: Conn): Promise<StudentRef | undefined> {
    const row = await this.repo.findStudentByAdmission(admissionNumber.toUpperCase(), conn);
    return row && { id: row.id, admission_number: row.admission_number, student_class: row.student_class, status: row.status };
  }

  /**
   * The one student an admission number's key names (`admissionNumberKey`: `stu 0001` finds STU-0001),
   * with their account's id; undefined when none, or when two stored numbers share the key.
   */
  async studentByAdmissionKey(key: string): Promise<(StudentRef & { user_id: number }) | undefined> {
    const rows = await this.repo.findStudentsByAdmissionKey(key);
    return rows.length === 1 ? rows[0] : undefined;
  }

  /** Admission numbers of the students among `ids`, by id. */
  async admissionNumbersOf(ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.repo.admissionNumbersByIds(ids);
    return new Map(rows.map((r) => [r.id, r.admission_number]));
  }

  /** The staff members among `ids`, by id (unknown ids are absent). */
  async staffByIds(ids: readonly number[], conn?: Conn): Promise<Map<number, StaffRef>> {
    const rows = await this.repo.staffByIds(ids, conn);
    return new Map(rows.map((r) => [r.id, { id: r.id, staff_id: r.staff_id, name: personName(r) }]));
  }
}

/** One-time passwords for bulk sign-in slips (decision 005), for other modules' invitations (parents, issue 33). */
export { generateOneTimePasswords } from './one-time-passwords';

export type { EnrolmentRow, RosterStudent, StudentMove } from './class-history.repository';

/** A student's arm and stream in one session. */
export interface ArmInSession {
  student_class: string;
  stream_id: number | null;
}

/**
 * People's port for class history (decision record 038), used by promotion, payments, results and
 * access: a session with enrolment rows is closed (its arms come from the rows only); a session
 * without rows is live (arms are `students.student_class`). Promotion writes a closed session's rows
 * (each student's arm in it) and then moves the students.
 */
export class PeopleService {
  constructor(
    private readonly history: ClassHistoryRepository,
    private readonly db: Conn,
  ) {}

  /**
   * The student as they were in the session: their arm (and stream) there when the session is
   * closed, today's otherwise. For the readers of one student (statement, card, transcript).
   */
  async asInSession<S extends { id: number; student_class: string }>(sessionId: number, student: S, conn: Conn = this.db): Promise<S> {
    const arm = (await this.history.armsInSession(conn, sessionId, [student.id]))[0];
    return arm ? { ...student, student_class: arm.student_class } : student;
  }

  /** Each student's arm in the session (students unknown there are absent). One query per 1,000 ids. */
  async armsInSession(conn: Conn, sessionId: number, studentIds: readonly number[]): Promise<Map<number, ArmInSession>> {
    const rows = await this.history.armsInSession(conn, sessionId, studentIds);
    return new Map(rows.map((r) => [r.id, { student_class: r.student_class, stream_id: r.stream_id }]));
  }

  /** `armsInSession` for several sessions, in a fixed number of statements (the balance brought forward reads every earlier session). */
  async armsInSessions(
    conn: Conn,
    sessionIds: readonly number[],
    studentIds: readonly number[],
  ): Promise<Map<number, Map<number, ArmInSession>>> {
    const bySession = await this.history.armsInSessions(conn, sessionIds, studentIds);
    return new Map(
      [...bySession].map(([sessionId, rows]) => [
        sessionId,
        new Map(rows.map((r) => [r.id, { student_class: r.student_class, stream_id: r.stream_id }])),
      ]),
    );
  }

  /** The session's roster of an arm: a closed session's enrolment rows, or a live one's active students. */
  rosterInSession(conn: Conn, sessionId: number, arm: string): Promise<RosterStudent[]> {
    return this.history.rosterInSession(conn, sessionId, arm);
  }

  /** Writes a session's enrolment rows (in the caller's transaction). */
  recordEnrolments(trx: Conn, rows: readonly EnrolmentRow[]): Promise<void> {
    return this.history.recordEnrolments(trx, rows);
  }

  /** Closes the session for the active students a one-arm run leaves where they are (their arm today, no outcome). */
  snapshotSession(trx: Conn, sessionId: number, runId: number): Promise<void> {
    return this.history.snapshotSession(trx, sessionId, runId);
  }

  /** A promotion run's undo: its rows lose their outcome; the session is live again once none has one. */
  undoEnrolmentsOfRun(trx: Conn, runId: number, sessionId: number): Promise<void> {
    return this.history.undoEnrolmentsOfRun(trx, runId, sessionId);
  }

  /** Removes the rows a promotion run wrote (its undo); the count removed. */
  deleteEnrolmentsOfRun(trx: Conn, runId: number): Promise<number> {
    return this.history.deleteEnrolmentsOfRun(trx, runId);
  }

  /** Moves students to their arm/stream/status of now (a 'graduated' status turns sign-in off). */
  moveStudents(trx: Conn, moves: readonly StudentMove[]): Promise<void> {
    return this.history.moveStudents(trx, moves);
  }
}
