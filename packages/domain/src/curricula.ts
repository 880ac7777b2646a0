import { CLASS_LEVELS, type ClassLevel, type SubjectSection } from './teaching';

/**
 * The subjects a NEW install starts with: the national curricula instead of the
 * earlier fourteen subjects offered as compulsory at every level. An existing school keeps its own
 * catalogue and offerings (nothing here touches a database that already has users).
 *
 * - JSS 1–3, the UBE basic education curriculum: every student takes the core; each picks one
 *   Nigerian language (Yoruba, Igbo or Hausa) and one religion (CRS or IRS) as electives.
 * - SSS 1–3: a core every student takes (English, Mathematics, Civic Education, a trade subject —
 *   Data Processing — and Biology), the subjects of their stream (science, arts or commercial), and
 *   electives they opt into (CRS or IRS among them for arts students).
 * Names and codes are those the demo school uses for the same subjects.
 */

export interface CurriculumSubject {
  name: string;
  code: string;
  section: SubjectSection;
}

/** Report-card order. */
export const CURRICULUM_SUBJECTS: readonly CurriculumSubject[] = [
  { name: 'English Language', code: 'ENG', section: 'ALL' },
  { name: 'Mathematics', code: 'MTH', section: 'ALL' },
  { name: 'Basic Science', code: 'BSC', section: 'JSS' },
  { name: 'Basic Technology', code: 'BTE', section: 'JSS' },
  { name: 'Social Studies', code: 'SOS', section: 'JSS' },
  { name: 'Civic Education', code: 'CVE', section: 'ALL' },
  { name: 'Cultural and Creative Arts', code: 'CCA', section: 'JSS' },
  { name: 'Physical and Health Education', code: 'PHE', section: 'ALL' },
  { name: 'Business Studies', code: 'BUS', section: 'JSS' },
  { name: 'Computer Studies', code: 'CMP', section: 'ALL' },
  { name: 'Home Economics', code: 'HEC', section: 'ALL' },
  { name: 'Agricultural Science', code: 'AGR', section: 'ALL' },
  { name: 'French', code: 'FRE', section: 'ALL' },
  { name: 'Yoruba', code: 'YOR', section: 'ALL' },
  { name: 'Igbo', code: 'IGB', section: 'ALL' },
  { name: 'Hausa', code: 'HAU', section: 'ALL' },
  { name: 'Christian Religious Studies', code: 'CRS', section: 'ALL' },
  { name: 'Islamic Religious Studies', code: 'IRS', section: 'ALL' },
  { name: 'Data Processing', code: 'DPR', section: 'SSS' },
  { name: 'Biology', code: 'BIO', section: 'SSS' },
  { name: 'Physics', code: 'PHY', section: 'SSS' },
  { name: 'Chemistry', code: 'CHM', section: 'SSS' },
  { name: 'Further Mathematics', code: 'FMT', section: 'SSS' },
  { name: 'Literature in English', code: 'LIT', section: 'SSS' },
  { name: 'Government', code: 'GOV', section: 'SSS' },
  { name: 'History', code: 'HIS', section: 'SSS' },
  { name: 'Economics', code: 'ECO', section: 'SSS' },
  { name: 'Commerce', code: 'COM', section: 'SSS' },
  { name: 'Financial Accounting', code: 'ACC', section: 'SSS' },
  { name: 'Marketing', code: 'MKT', section: 'SSS' },
];

/** One Nigerian language and one religion per student. */
const JSS_ELECTIVES = ['Yoruba', 'Igbo', 'Hausa', 'Christian Religious Studies', 'Islamic Religious Studies'];
/** Every other subject of the junior curriculum: taken by every JSS student. */
const JSS_CORE = CURRICULUM_SUBJECTS.filter((s) => s.section !== 'SSS' && !JSS_ELECTIVES.includes(s.name)).map((s) => s.name);
const SSS_CORE = ['English Language', 'Mathematics', 'Civic Education', 'Data Processing', 'Biology'];

/** The senior streams and the subjects each gives its students. */
export const CURRICULUM_STREAMS: readonly { name: string; subjects: readonly string[] }[] = [
  { name: 'Science', subjects: ['Physics', 'Chemistry', 'Further Mathematics', 'Agricultural Science'] },
  { name: 'Arts', subjects: ['Literature in English', 'Government', 'History'] },
  { name: 'Commercial', subjects: ['Economics', 'Commerce', 'Financial Accounting', 'Marketing'] },
];
/** Senior electives beyond the streams' subjects: the religion an arts (or any) student chooses. */
const SSS_ELECTIVES = ['Christian Religious Studies', 'Islamic Religious Studies'];

/** What a class level offers in the curricula: compulsory for every student, or not (stream or own choice). */
export function curriculumOfferings(level: ClassLevel): { name: string; compulsory: boolean }[] {
  if (level.startsWith('JSS')) {
    return [...JSS_CORE.map((name) => ({ name, compulsory: true })), ...JSS_ELECTIVES.map((name) => ({ name, compulsory: false }))];
  }
  const streamSubjects = [...new Set(CURRICULUM_STREAMS.flatMap((s) => s.subjects))];
  return [
    ...SSS_CORE.map((name) => ({ name, compulsory: true })),
    ...[...streamSubjects, ...SSS_ELECTIVES].map((name) => ({ name, compulsory: false })),
  ];
}

/** Every level's offerings, for the seed. */
export function curriculumPlan(): { level: ClassLevel; name: string; compulsory: boolean }[] {
  return CLASS_LEVELS.flatMap((level) => curriculumOfferings(level).map((o) => ({ level, ...o })));
}
