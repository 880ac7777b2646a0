// What promotion needs of people (the class history of decision 038), declared here and answered by
// people's service in the composition root: promotion writes the closed session's enrolment rows and
// moves students only through these.
import type { Conn } from '../../db/index';

/** A student of the selection (promotion's repository reads them), with whether they already have an enrolment row in the session (promoted already). */
export interface PromotionCandidate {
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  /** The student's arm today (for a student not yet promoted: their arm in the ending session). */
  student_class: string;
  stream_id: number | null;
  status: string;
  enrolled: boolean;
}

export interface EnrolmentWrite {
  student_id: number;
  session_id: number;
  student_class: string;
  stream_id: number | null;
  outcome: 'promoted' | 'trial' | 'repeat' | 'graduated' | 'moved' | null;
  run_id: number | null;
}

export interface StudentMoveWrite {
  student_id: number;
  student_class: string;
  stream_id: number | null;
  status: 'active' | 'graduated';
}

export interface PromotionPeople {
  recordEnrolments(trx: Conn, rows: readonly EnrolmentWrite[]): Promise<void>;
  deleteEnrolmentsOfRun(trx: Conn, runId: number): Promise<void>;
  moveStudents(trx: Conn, moves: readonly StudentMoveWrite[]): Promise<void>;
}
