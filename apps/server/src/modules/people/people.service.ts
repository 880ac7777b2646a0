import { personName } from '@portal/domain';
import type { StudentStatus } from '../../db/schema';
import type { Conn } from '../../db/index';
import type { PeopleRepository } from './people.repository';

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

  /** The staff members among `ids`, by id (unknown ids are absent). */
  async staffByIds(ids: readonly number[], conn?: Conn): Promise<Map<number, StaffRef>> {
    const rows = await this.repo.staffByIds(ids, conn);
    return new Map(rows.map((r) => [r.id, { id: r.id, staff_id: r.staff_id, name: personName(r) }]));
  }
}

/** One-time passwords for bulk sign-in slips (decision 005), for other modules' invitations (parents, issue 33). */
export { generateOneTimePasswords } from './one-time-passwords';
