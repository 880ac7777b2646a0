import {
  CLASS_LEVELS,
  CURRICULUM_SUBJECTS,
  SUBJECTS,
  armName,
  sectionOfLevel,
  studentSubjectIds,
  type ClassLevel,
  type SubjectPlan,
  type SubjectSection,
} from '@portal/domain';
import { nowIso, type DB, inTransaction } from '../index';
import '../../modules/teaching/teaching.tables';

/**
 * The teaching structure of the demo school and of the benchmark school: one description, so the
 * two never drift apart. Three arms per class level, a catalogue with junior and senior subjects,
 * what each level offers, three SSS streams, each student's stream and electives, and a teacher
 * for every arm-subject pair. The fourteen subjects and twelve arms of the earlier release keep
 * their names, so anything that knew them still finds them.
 */

export const SCHOOL_ARM_LABELS = ['A', 'B', 'C'] as const;

/** Every arm of the school, level by level ("JSS 1A", "JSS 1B", "JSS 1C", "JSS 2A", ...). */
export const SCHOOL_ARMS: { level: ClassLevel; arm: string; name: string }[] = CLASS_LEVELS.flatMap((level) =>
  SCHOOL_ARM_LABELS.map((arm) => ({ level, arm, name: armName(level, arm) })),
);

export interface CatalogueEntry {
  name: string;
  code: string;
  section: SubjectSection;
}

/** Subjects the demo school teaches in its junior classes only (the national curricula offer them at every level). */
const DEMO_JUNIOR_ONLY = new Set(['Home Economics', 'Physical and Health Education']);

/**
 * The catalogue in report-card order: the earlier release's fourteen (the domain's SUBJECTS) first. Codes and sections are
 * the curricula's (one list of codes for both), but for the demo's junior-only subjects.
 */
export const SCHOOL_CATALOGUE: CatalogueEntry[] = [
  ...SUBJECTS,
  'Islamic Religious Studies',
  'Yoruba',
  'Biology',
  'Physics',
  'Chemistry',
  'Further Mathematics',
  'Literature in English',
  'Government',
  'History',
  'Financial Accounting',
  'Commerce',
  'Economics',
].map((name) => {
  const { code, section } = CURRICULUM_SUBJECTS.find((c) => c.name === name)!;
  return { name, code, section: DEMO_JUNIOR_ONLY.has(name) ? 'JSS' : section };
});

const JSS_COMPULSORY = [
  'Mathematics',
  'English Language',
  'Basic Science',
  'Basic Technology',
  'Social Studies',
  'Civic Education',
  'Cultural and Creative Arts',
  'Business Studies',
  'Computer Studies',
  'Physical and Health Education',
];
/** A junior student picks one religion and one language; a few add a pre-vocational subject. */
const JSS_ELECTIVES = [
  'Christian Religious Studies',
  'Islamic Religious Studies',
  'French',
  'Yoruba',
  'Home Economics',
  'Agricultural Science',
];
const SSS_CORE = ['Mathematics', 'English Language', 'Civic Education', 'Biology', 'Computer Studies'];

export const SCHOOL_STREAMS: { name: string; subjects: string[] }[] = [
  { name: 'Science', subjects: ['Physics', 'Chemistry', 'Further Mathematics', 'Agricultural Science'] },
  { name: 'Arts', subjects: ['Literature in English', 'Government', 'Christian Religious Studies', 'History'] },
  { name: 'Commercial', subjects: ['Financial Accounting', 'Commerce', 'Economics'] },
];

/** What a class level offers: junior levels 16 subjects (12 per student), senior levels 16 (9 or 10 per student). */
export function levelOfferings(level: ClassLevel): { name: string; compulsory: boolean }[] {
  if (sectionOfLevel(level) === 'JSS') {
    return [...JSS_COMPULSORY.map((name) => ({ name, compulsory: true })), ...JSS_ELECTIVES.map((name) => ({ name, compulsory: false }))];
  }
  const streamSubjects = [...new Set(SCHOOL_STREAMS.flatMap((s) => s.subjects))];
  return [...SSS_CORE.map((name) => ({ name, compulsory: true })), ...streamSubjects.map((name) => ({ name, compulsory: false }))];
}

/** A senior stream's extra subject a few of its students take. */
const SSS_ELECTIVE: Record<string, string> = { Science: 'Economics', Arts: 'Agricultural Science', Commercial: 'Further Mathematics' };

/**
 * The n-th student's stream (senior students) and own electives, by their number in the school:
 * spread evenly, and the same on every machine.
 */
export function studentChoice(n: number, level: ClassLevel): { stream: string | null; add: string[] } {
  if (sectionOfLevel(level) === 'JSS') {
    const add = [n % 4 === 0 ? 'Islamic Religious Studies' : 'Christian Religious Studies', n % 3 === 0 ? 'Yoruba' : 'French'];
    if (n % 5 === 0) add.push('Home Economics');
    if (n % 7 === 0) add.push('Agricultural Science');
    return { stream: null, add };
  }
  const stream = SCHOOL_STREAMS[n % SCHOOL_STREAMS.length]!.name;
  return { stream, add: n % 4 === 0 ? [SSS_ELECTIVE[stream]!] : [] };
}

/** The structure as a subject plan keyed by catalogue position, for the domain's derivation rule. */
const NAME_PLAN: SubjectPlan = (() => {
  const index = new Map(SCHOOL_CATALOGUE.map((s, i) => [s.name, i]));
  const plan: SubjectPlan = { names: new Map(), order: new Map(), offerings: new Map(), streams: new Map() };
  SCHOOL_CATALOGUE.forEach((s, i) => {
    plan.names.set(i, s.name);
    plan.order.set(i, i);
  });
  for (const level of CLASS_LEVELS)
    plan.offerings.set(level, new Map(levelOfferings(level).map((o) => [index.get(o.name)!, o.compulsory])));
  SCHOOL_STREAMS.forEach((s, k) => plan.streams.set(k, new Set(s.subjects.map((n) => index.get(n)!))));
  return plan;
})();

/** The subjects a student with this choice takes, in catalogue order (the domain's rule, not a copy of it). */
export function studentSubjectNames(level: ClassLevel, choice: { stream: string | null; add: string[] }): string[] {
  const index = new Map(SCHOOL_CATALOGUE.map((s, i) => [s.name, i]));
  const stream = choice.stream === null ? null : SCHOOL_STREAMS.findIndex((s) => s.name === choice.stream);
  return studentSubjectIds(NAME_PLAN, {
    class_level: level,
    stream_id: stream,
    add: choice.add.map((n) => index.get(n)!),
    drop: [],
  }).map((i) => NAME_PLAN.names.get(i)!);
}

/**
 * Every arm-subject pair the school teaches, subject by subject within each section, so that
 * cutting the list into equal runs gives each teacher one subject over several arms.
 */
export function teachingCells(): { arm: string; subject: string }[] {
  const cells: { arm: string; subject: string }[] = [];
  for (const section of ['JSS', 'SSS'] as const) {
    const levels = CLASS_LEVELS.filter((l) => sectionOfLevel(l) === section);
    const subjects = SCHOOL_CATALOGUE.filter((s) => levelOfferings(levels[0]!).some((o) => o.name === s.name));
    for (const s of subjects) for (const a of SCHOOL_ARMS) if (levels.includes(a.level)) cells.push({ arm: a.name, subject: s.name });
  }
  return cells;
}

/** The teacher (an index into `teachers` of length `count`) of each cell: equal consecutive runs. */
export function teacherOfCell(cell: number, cells: number, count: number): number {
  return Math.floor((cell * count) / cells);
}

/** Distinct (subject, section) runs: one demo teacher each. */
export function teachingRuns(): { subject: string; section: 'JSS' | 'SSS' }[] {
  const seen = new Set<string>();
  const runs: { subject: string; section: 'JSS' | 'SSS' }[] = [];
  for (const c of teachingCells()) {
    const section = c.arm.startsWith('SSS') ? 'SSS' : 'JSS';
    const key = `${section}|${c.subject}`;
    if (!seen.has(key)) {
      seen.add(key);
      runs.push({ subject: c.subject, section });
    }
  }
  return runs;
}

/**
 * Writes the structure into a freshly migrated database (the migration has already turned the
 * earlier release's classes and subjects into arms and a catalogue): sections and new subjects,
 * the C arms, offerings per level, streams. Returns the ids by name for the rest of the seed.
 */
export async function seedTeachingStructure(
  db: DB,
): Promise<{ arms: Map<string, number>; subjects: Map<string, number>; streams: Map<string, number> }> {
  const now = nowIso();
  return inTransaction(db, async (trx) => {
    const existing = new Map((await trx.selectFrom('subjects').select(['id', 'name']).execute()).map((s) => [s.name, s.id]));
    for (const [i, s] of SCHOOL_CATALOGUE.entries()) {
      if (existing.has(s.name)) {
        await trx
          .updateTable('subjects')
          .set({ section: s.section, sort_order: i + 1 })
          .where('id', '=', existing.get(s.name)!)
          .execute();
      } else {
        await trx
          .insertInto('subjects')
          .values({ name: s.name, code: s.code, section: s.section, sort_order: i + 1, retired: 0, created_at: now })
          .execute();
      }
    }
    const haveArms = new Set((await trx.selectFrom('class_arms').select('name').execute()).map((a) => a.name));
    const newArms = SCHOOL_ARMS.filter((a) => !haveArms.has(a.name));
    if (newArms.length)
      await trx
        .insertInto('class_arms')
        .values(newArms.map((a) => ({ ...a, retired: 0, created_at: now })))
        .execute();

    const subjects = new Map((await trx.selectFrom('subjects').select(['id', 'name']).execute()).map((s) => [s.name, s.id]));
    const arms = new Map((await trx.selectFrom('class_arms').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
    await trx.deleteFrom('level_subjects').execute();
    await trx
      .insertInto('level_subjects')
      .values(
        CLASS_LEVELS.flatMap((level) =>
          levelOfferings(level).map((o) => ({ class_level: level, subject_id: subjects.get(o.name)!, compulsory: o.compulsory ? 1 : 0 })),
        ),
      )
      .execute();
    const streams = new Map<string, number>();
    // A new install already has the curricula's streams (same names): the demo's subject lists replace theirs.
    const haveStreams = new Map((await trx.selectFrom('streams').select(['id', 'name']).execute()).map((s) => [s.name, s.id]));
    for (const s of SCHOOL_STREAMS) {
      const row = haveStreams.has(s.name)
        ? { id: haveStreams.get(s.name)! }
        : await trx.insertInto('streams').values({ name: s.name, created_at: now }).returning('id').executeTakeFirstOrThrow();
      await trx.deleteFrom('stream_subjects').where('stream_id', '=', row.id).execute();
      streams.set(s.name, row.id);
      await trx
        .insertInto('stream_subjects')
        .values(s.subjects.map((name) => ({ stream_id: row.id, subject_id: subjects.get(name)! })))
        .execute();
    }
    return { arms, subjects, streams };
  });
}
