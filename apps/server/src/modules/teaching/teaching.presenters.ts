import type { CatalogueSubject, ClassArm, ClassLevel, LevelOffering, Stream, SubjectSection } from '@portal/domain';
import { CLASS_LEVELS, personName } from '@portal/domain';

/** Rows of the teaching tables turned into the API's shapes. */

export const presentArm = (r: {
  id: number;
  level: string;
  arm: string;
  name: string;
  retired: number;
  students?: number | string | null;
}): ClassArm => ({
  id: r.id,
  level: r.level as ClassLevel,
  arm: r.arm,
  name: r.name,
  retired: Number(r.retired) === 1,
  students: Number(r.students ?? 0),
});

export const presentSubject = (r: { id: number; name: string; code: string; section: string; retired: number }): CatalogueSubject => ({
  id: r.id,
  name: r.name,
  code: r.code,
  section: r.section as SubjectSection,
  retired: Number(r.retired) === 1,
});

/** Every level (including one offering nothing), subjects in catalogue order. */
export function presentOfferings(
  rows: readonly { class_level: string; subject_id: number; compulsory: number }[],
  order: ReadonlyMap<number, number>,
): LevelOffering[] {
  return CLASS_LEVELS.map((class_level) => ({
    class_level,
    subjects: rows
      .filter((r) => r.class_level === class_level)
      .sort((a, b) => (order.get(a.subject_id) ?? 0) - (order.get(b.subject_id) ?? 0))
      .map((r) => ({ subject_id: r.subject_id, compulsory: Number(r.compulsory) === 1 })),
  }));
}

export function presentStreams(
  streams: readonly { id: number; name: string }[],
  links: readonly { stream_id: number; subject_id: number }[],
): Stream[] {
  return streams.map((s) => ({
    id: s.id,
    name: s.name,
    subject_ids: links
      .filter((l) => l.stream_id === s.id)
      .map((l) => l.subject_id)
      .sort((a, b) => a - b),
  }));
}

export const presentStaff = (r: { staff_pk: number; staff_id: string; first_name: string; last_name: string }) => ({
  id: r.staff_pk,
  staff_id: r.staff_id,
  name: personName(r),
});
