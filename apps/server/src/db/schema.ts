import type { Generated, Kysely, Transaction } from 'kysely';
import type { Result } from '@portal/domain';

/**
 * Table types. Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC text in both
 * dialects, so one query path serves SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: Generated<number>;
  role: 'admin' | 'staff' | 'student' | 'parent';
  /** Null for a student registered without one (migration 0025): they sign in by admission number. */
  email: string | null;
  password_hash: string;
  must_change_password: number;
  disabled: number;
  /** Bumped on password change/reset/disable: every access token issued before is refused. */
  token_version: number;
  created_at: string;
  updated_at: string;
}

export interface AdminsTable {
  id: Generated<number>;
  user_id: number;
  username: string;
  first_name: string;
  last_name: string;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  used_at: string | null;
  created_at: string;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_start: string;
  blocked_until: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string;
  before: string | null;
  after: string | null;
  created_at: string;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface AcademicSessionsTable {
  id: Generated<number>;
  name: string;
  is_current: number;
  created_at: string;
}

export interface StudentPhotosTable {
  student_id: number;
  /** A small normalised JPEG or PNG as a data URL. */
  photo: string;
  updated_by: number | null;
  updated_at: string;
}

export interface StudentsTable {
  id: Generated<number>;
  user_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  gender: string | null;
  date_of_birth: string | null;
  student_class: string;
  fathers_name: string;
  fathers_phone: string;
  mothers_name: string;
  mothers_phone: string;
  home_address: string;
  /** A senior student's stream (migration 0014); null for junior students and before it is chosen. */
  stream_id?: number | null;
  /**
   * 'active', 'withdrawn' (migration 0013; the record is kept read-only) or 'graduated' (alumni,
   * migration 0035): neither of the last two signs in or is on a live roster.
   */
  status: Generated<StudentStatus>;
  withdrawn_at: string | null;
  /** When promotion graduated the student (migration 0035); null otherwise. */
  graduated_at?: string | null;
  created_at: string;
  updated_at: string;
}

export type StudentStatus = 'active' | 'withdrawn' | 'graduated';

/** What promotion decided for a student at the end of a session (the enrolment row's outcome). */
export type EnrolmentOutcome = 'promoted' | 'trial' | 'repeat' | 'graduated' | 'moved';

/**
 * A student's arm in a closed session (migration 0035, decision record 038). A session with rows is
 * closed: its rosters and each student's arm in it come from these rows only; a session without rows
 * is live and reads `students.student_class`.
 */
export interface StudentEnrolmentsTable {
  id: Generated<number>;
  student_id: number;
  session_id: number;
  student_class: string;
  stream_id: number | null;
  outcome: EnrolmentOutcome | null;
  /** The promotion run that wrote the row (undo deletes a run's rows); null for a single move. */
  run_id: number | null;
  created_at: string;
}

export interface StaffTable {
  id: Generated<number>;
  user_id: number;
  staff_id: string;
  username: string | null;
  first_name: string;
  last_name: string;
  phone_number: string;
  gender: string | null;
  designation: string;
  department: string;
  marital_status: string | null;
  qualifications: string | null;
  employment_date: string | null;
  bank_account: string | null;
  tax_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A stored result: its score columns have the API's types (`Result`); version is the optimistic lock. */
export interface ResultsTable extends Pick<
  Result,
  'session_id' | 'term' | 'student_class' | 'subject' | 'score' | 'remarks' | 'grade' | 'version'
> {
  id: Generated<number>;
  student_id: number;
  /** JSON of ComponentScores; null for a result entered as one score (migration 0015). */
  components: string | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface AttendanceTable {
  id: Generated<number>;
  student_id: number;
  date: string;
  status: string;
}

export interface Database {
  users: UsersTable;
  admins: AdminsTable;
  refresh_tokens: RefreshTokensTable;
  login_throttle: LoginThrottleTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  counters: CountersTable;
  academic_sessions: AcademicSessionsTable;
  students: StudentsTable;
  student_enrolments: StudentEnrolmentsTable;
  student_photos: StudentPhotosTable;
  staff: StaffTable;
  results: ResultsTable;
  attendance: AttendanceTable;
  parents: ParentsTable;
  parent_links: ParentLinksTable;
  parent_link_conflicts: ParentLinkConflictsTable;
}

export type DB = Kysely<Database>;
/** The database or an open transaction: what a repository method runs on. */
export type Conn = Kysely<Database> | Transaction<Database>;
/** An open transaction, for code that must run inside one (counter allocation, locks). */
export type Trx = Transaction<Database>;

/** A parent's account record (migration 0032): the phone is E.164 ("+2348031234567"), unique. */
export interface ParentsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  phone: string;
  email: string | null;
  created_at: string;
  invited_at: string | null;
  last_sign_in_at: string | null;
}

/** A student a parent reaches (migration 0032); the access scope reads it. */
export interface ParentLinksTable {
  id: Generated<number>;
  parent_id: number;
  student_id: number;
  relationship: 'father' | 'mother' | 'guardian';
  source: 'student_form' | 'import' | 'admin';
  created_at: string;
}

/** A phone given for a student under a name that disagrees with the phone's parent: for the admin to settle. */
export interface ParentLinkConflictsTable {
  id: Generated<number>;
  phone: string;
  student_id: number;
  relationship: 'father' | 'mother' | 'guardian';
  name_given: string;
  source: 'student_form' | 'import' | 'admin';
  created_at: string;
  resolved_at: string | null;
  resolution: 'link' | 'dismiss' | null;
}
