import { writeAuditMany } from '../../db/audit';
import type { Conn } from '../../db/index';
import { nowIso } from '../../db/index';
import { recordNoticeEvent } from '../../db/notice-outbox';
import type { ReportCardsRepository } from './report-cards.repository';

export interface ReleasedArm {
  student_class: string;
  publication_id: number;
  /** False when the arm was already published (nothing changed). */
  created: boolean;
  /** True when the release also approved it (it was draft or submitted). */
  approved_now: boolean;
}

/**
 * Releases arms' report cards: publishes their results (what students see) and marks them approved,
 * for any number of arms in a fixed number of statements (a whole school's release is a handful, not
 * one per student or arm). One audit row per arm newly published says whether the release approved
 * it too, and one notice event per arm newly published (the parents' "results released"). The one
 * way to publish: POST /results/publications/ and POST /report-approvals/release/.
 * Call inside the transaction that checked the arms.
 */
export async function releaseArms(
  conn: Conn,
  cards: ReportCardsRepository,
  v: { session_id: number; term: string; classes: readonly string[]; actor: number },
): Promise<ReleasedArm[]> {
  if (!v.classes.length) return [];
  const statuses = await cards.statuses(v.session_id, v.term, v.classes, conn);
  const approved = new Set(statuses.filter((s) => s.status === 'approved').map((s) => s.student_class));
  const at = nowIso();
  const inserted = await cards.insertPublications(conn, v, at);
  const fresh = new Map(inserted.map((p) => [p.student_class, p.id]));
  const toApprove = v.classes.filter((c) => !approved.has(c));
  await cards.approveMany(conn, v.session_id, v.term, toApprove, v.actor);
  const existing = inserted.length < v.classes.length ? await cards.publicationIds(conn, v) : new Map<string, number>();
  await writeAuditMany(
    conn,
    inserted.map((p) => ({
      actorUserId: v.actor,
      action: 'publish',
      entity: 'result_publication',
      entityId: p.id,
      after: { session_id: v.session_id, term: v.term, student_class: p.student_class, approved_now: !approved.has(p.student_class) },
    })),
  );
  // Parents hear of each arm newly released, once (decision record 037): an arm released again after
  // a withdrawal is the same event key, so they are not told twice.
  for (const p of inserted) {
    await recordNoticeEvent(conn, {
      kind: 'results_released',
      key: `results_released:${v.session_id}:${v.term}:${p.student_class}`,
      payload: { session_id: v.session_id, term: v.term, student_class: p.student_class },
    });
  }
  return v.classes.map((c) => ({
    student_class: c,
    publication_id: fresh.get(c) ?? existing.get(c)!,
    created: fresh.has(c),
    approved_now: fresh.has(c) && !approved.has(c),
  }));
}
