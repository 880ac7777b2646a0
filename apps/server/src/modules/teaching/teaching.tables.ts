/** Tables of the teaching structure (migration 0014), added to the shared Database type. */
import type { Generated } from 'kysely';

export interface ClassArmsTable {
  id: Generated<number>;
  level: string;
  arm: string;
  /** The class name stored on students, results, publications and fee items ("JSS 1A"). */
  name: string;
  retired: Generated<number>;
  created_at: string;
}

export interface SubjectsTable {
  id: Generated<number>;
  name: string;
  code: string;
  /** 'JSS', 'SSS' or 'ALL'. */
  section: string;
  sort_order: number;
  retired: Generated<number>;
  created_at: string;
}

export interface LevelSubjectsTable {
  class_level: string;
  subject_id: number;
  compulsory: number;
}

export interface StreamsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface StreamSubjectsTable {
  stream_id: number;
  subject_id: number;
}

export interface StudentSubjectsTable {
  student_id: number;
  subject_id: number;
  choice: 'add' | 'drop';
}

export interface TeachingAssignmentsTable {
  id: Generated<number>;
  session_id: number;
  arm_id: number;
  subject_id: number;
  staff_id: number;
  created_at: string;
}

export interface FormTeachersTable {
  session_id: number;
  arm_id: number;
  staff_id: number;
}

export interface ScoreEntryWindowsTable {
  session_id: number;
  term: string;
  class_level: string;
  is_open: number;
  updated_by: number | null;
  updated_at: string;
}

export interface SessionTeachingTable {
  session_id: number;
  enforce_assignments: number;
  updated_by: number | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    class_arms: ClassArmsTable;
    subjects: SubjectsTable;
    level_subjects: LevelSubjectsTable;
    streams: StreamsTable;
    stream_subjects: StreamSubjectsTable;
    student_subjects: StudentSubjectsTable;
    teaching_assignments: TeachingAssignmentsTable;
    form_teachers: FormTeachersTable;
    score_entry_windows: ScoreEntryWindowsTable;
    session_teaching: SessionTeachingTable;
  }
}
