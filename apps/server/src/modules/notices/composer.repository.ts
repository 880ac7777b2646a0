import type { ClassLevel } from '@portal/domain';
import { Repository, type Conn } from '../../db/index';

/** One student with one of their linked parents (or none): who a notice about the student goes to. */
export interface FamilyRow {
  student_id: number;
  student_user_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  parent_id: number | null;
  parent_user_id: number | null;
  parent_name: string | null;
  phone: string | null;
  email: string | null;
}

/** Which students a notice is about: named ones, an arm, a level's arms, or every active student. */
export interface FamilyFilter {
  studentIds?: readonly number[];
  admissionNumbers?: readonly string[];
  arm?: string;
  level?: ClassLevel;
}

/**
 * The notices' one reader of families (decision record 037): active students with their linked
 * parents (students ⋈ parent_links ⋈ parents), in one set-based statement on the caller's
 * connection, so the composer reads inside the worker's transaction and a blast inside its own.
 * Like the access scope it reads tables it does not own, for one question; it writes none of them.
 */
export class NoticeRecipientsRepository extends Repository {
  async families(filter: FamilyFilter, conn: Conn = this.db): Promise<FamilyRow[]> {
    if ((filter.studentIds && !filter.studentIds.length) || (filter.admissionNumbers && !filter.admissionNumbers.length)) return [];
    let q = conn
      .selectFrom('students as s')
      .leftJoin('parent_links as l', 'l.student_id', 's.id')
      .leftJoin('parents as p', 'p.id', 'l.parent_id')
      .select([
        's.id as student_id',
        's.user_id as student_user_id',
        's.admission_number',
        's.first_name',
        's.last_name',
        's.student_class',
        'p.id as parent_id',
        'p.user_id as parent_user_id',
        'p.name as parent_name',
        'p.phone',
        'p.email',
      ])
      .where('s.status', '=', 'active');
    if (filter.studentIds) q = q.where('s.id', 'in', [...filter.studentIds]);
    if (filter.admissionNumbers) q = q.where('s.admission_number', 'in', [...filter.admissionNumbers]);
    if (filter.arm) q = q.where('s.student_class', '=', filter.arm);
    if (filter.level) q = q.where('s.student_class', 'like', `${filter.level}%`);
    const rows = await q.orderBy('s.id').orderBy('p.id').execute();
    return rows.map((r) => ({
      ...r,
      student_id: Number(r.student_id),
      student_user_id: Number(r.student_user_id),
      parent_id: r.parent_id === null ? null : Number(r.parent_id),
      parent_user_id: r.parent_user_id === null ? null : Number(r.parent_user_id),
    }));
  }

  /** Parents by id with their contact (an invitation names its parent). */
  async parents(
    conn: Conn,
    ids: readonly number[],
  ): Promise<{ id: number; user_id: number; name: string; phone: string; email: string | null }[]> {
    if (!ids.length) return [];
    const rows = await conn
      .selectFrom('parents')
      .select(['id', 'user_id', 'name', 'phone', 'email'])
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id) }));
  }
}
