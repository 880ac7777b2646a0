import {
  normaliseNigerianPhone,
  parentNamesAgree,
  PARENT_RELATIONSHIP_LABELS,
  type ParentLinkSource,
  type ParentRelationship,
} from '@portal/domain';
import type { Conn } from '../../db/index';
import type { NewConflict, NewLink, ParentRow, ParentsRepository } from './parents.repository';

/** What linking reads of a student: the record's id, name and the father's and mother's fields. */
export interface LinkableStudent {
  id: number;
  first_name?: string;
  last_name?: string;
  fathers_name: string;
  fathers_phone: string;
  mothers_name: string;
  mothers_phone: string;
}

interface Wanted {
  studentId: number;
  phone: string;
  name: string;
  relationship: ParentRelationship;
}

/** The parents a student's form names: the father's and the mother's phone, normalised; one entry when both are one phone. */
export function parentsNamedBy(s: LinkableStudent): Wanted[] {
  const out: Wanted[] = [];
  const child = [s.first_name, s.last_name].filter(Boolean).join(' ');
  const nameOr = (name: string, relationship: ParentRelationship) =>
    name.trim() || (child ? `${PARENT_RELATIONSHIP_LABELS[relationship]} of ${child}` : PARENT_RELATIONSHIP_LABELS[relationship]);
  const father = normaliseNigerianPhone(s.fathers_phone ?? '');
  const mother = normaliseNigerianPhone(s.mothers_phone ?? '');
  if (father) out.push({ studentId: s.id, phone: father, name: nameOr(s.fathers_name, 'father'), relationship: 'father' });
  // One family phone written for both: one account, linked once (as the father's entry above).
  if (mother && mother !== father) out.push({ studentId: s.id, phone: mother, name: nameOr(s.mothers_name, 'mother'), relationship: 'mother' });
  return out;
}

/**
 * Links students to parents from the father's and mother's phones of their records (decision 035),
 * inside the caller's transaction (the student form's, the import's, the backfill's):
 *
 * - a phone nobody holds yet becomes a new parent account (no password until invited), named as written;
 * - a phone a parent holds links the student when the names agree (`parentNamesAgree`: order, case and
 *   titles aside), and otherwise records a conflict for the admin, never a silent merge;
 * - a student already linked to the phone's parent stays linked (the admin's settling is kept);
 * - a pair the admin settled ("not this parent", or a link the admin removed) is never linked again by a form;
 * - a link the form or an import made whose phone the record no longer gives is removed (the admin's own links stay),
 *   and so are open conflicts of phones no longer given.
 *
 * Set-based: a few statements per call whatever the number of students (an import of 2,000 included).
 */
export class ParentLinking {
  constructor(private readonly repo: ParentsRepository) {}

  async linkStudents(conn: Conn, students: readonly LinkableStudent[], source: Exclude<ParentLinkSource, 'admin'>): Promise<void> {
    if (!students.length) return;
    const now = new Date().toISOString();
    const wanted = students.flatMap(parentsNamedBy);
    const ids = students.map((s) => s.id);
    const wantedPhones = new Map<number, Set<string>>(ids.map((id) => [id, new Set()]));
    for (const w of wanted) wantedPhones.get(w.studentId)!.add(w.phone);

    // What the records no longer say: their form-made links and open conflicts go.
    const links = await this.repo.linksOfStudents(conn, ids);
    const conflicts = await this.repo.conflictsOfStudents(conn, ids);
    const stale = links.filter((l) => l.source !== 'admin' && !wantedPhones.get(l.student_id)!.has(l.phone));
    await this.repo.deleteLinksById(
      conn,
      stale.map((l) => l.id),
    );
    const staleConflicts = conflicts.filter((c) => c.resolved_at === null && !wantedPhones.get(c.student_id)!.has(c.phone));
    await this.repo.deleteConflictsById(
      conn,
      staleConflicts.map((c) => c.id),
    );
    if (!wanted.length) return;

    const linked = new Set(links.filter((l) => !stale.includes(l)).map((l) => `${l.student_id} ${l.phone}`));
    const dismissed = new Set(conflicts.filter((c) => c.resolution === 'dismiss').map((c) => `${c.student_id} ${c.phone}`));

    const byPhone = new Map<string, ParentRow | { name: string; pending: true }>();
    for (const p of await this.repo.parentsByPhones(
      conn,
      wanted.map((w) => w.phone),
    ))
      byPhone.set(p.phone, p);
    // New phones: the first student naming one gives the parent's name.
    const fresh: { name: string; phone: string; email: null }[] = [];
    for (const w of wanted) {
      if (byPhone.has(w.phone)) continue;
      byPhone.set(w.phone, { name: w.name, pending: true });
      fresh.push({ name: w.name, phone: w.phone, email: null });
    }
    for (const p of await this.repo.insertParents(conn, fresh, now)) byPhone.set(p.phone, p);

    const newLinks: NewLink[] = [];
    const newConflicts: NewConflict[] = [];
    for (const w of wanted) {
      const key = `${w.studentId} ${w.phone}`;
      if (linked.has(key) || dismissed.has(key)) continue;
      const parent = byPhone.get(w.phone) as ParentRow;
      if (parentNamesAgree(parent.name, w.name)) {
        newLinks.push({ parentId: parent.id, studentId: w.studentId, relationship: w.relationship, source });
      } else {
        newConflicts.push({ phone: w.phone, studentId: w.studentId, relationship: w.relationship, nameGiven: w.name, source });
      }
    }
    await this.repo.insertLinks(conn, newLinks, now);
    await this.repo.insertConflicts(conn, newConflicts, now);
  }
}
