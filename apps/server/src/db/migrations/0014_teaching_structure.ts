import { sql, type Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Teaching structure: class arms, the subject catalogue, what each class level offers, SSS streams,
 * per-student subject choices, subject-teacher and form-teacher assignments per session, the
 * score-entry window and the per-session switch that makes assignments binding.
 *
 * Class and subject names stay the keys stored on students, results, publications and fee items,
 * so every existing row keeps working. What the earlier release fixed in code becomes data here:
 * - every class it allowed becomes an arm (plus any other well-formed class name found in the data);
 * - every subject it allowed becomes the catalogue (plus any other subject found in results);
 * - every class level offers every subject as compulsory, which is exactly the earlier behaviour;
 * - no session enforces assignments and no window is closed, so staff keep entering every score.
 * The lists are written out here rather than imported: a released migration never changes.
 */
const OLD_CLASSES = [
  'JSS 1A',
  'JSS 1B',
  'JSS 2A',
  'JSS 2B',
  'JSS 3A',
  'JSS 3B',
  'SSS 1A',
  'SSS 1B',
  'SSS 2A',
  'SSS 2B',
  'SSS 3A',
  'SSS 3B',
];
const OLD_SUBJECTS: [string, string][] = [
  ['Mathematics', 'MTH'],
  ['English Language', 'ENG'],
  ['Basic Science', 'BSC'],
  ['Basic Technology', 'BTE'],
  ['Social Studies', 'SOS'],
  ['Home Economics', 'HEC'],
  ['Computer Studies', 'CMP'],
  ['Physical and Health Education', 'PHE'],
  ['Civic Education', 'CVE'],
  ['Cultural and Creative Arts', 'CCA'],
  ['Business Studies', 'BUS'],
  ['French', 'FRE'],
  ['Christian Religious Studies', 'CRS'],
  ['Agricultural Science', 'AGR'],
];
const LEVELS = ['JSS 1', 'JSS 2', 'JSS 3', 'SSS 1', 'SSS 2', 'SSS 3'];
const CLASS_NAME = /^((?:JSS|SSS) [1-3])\s*([A-Za-z0-9][A-Za-z0-9 ]{0,19})$/;

export const teachingStructure: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('class_arms'), dialect)
      .addColumn('level', 'varchar(10)', (c) => c.notNull())
      .addColumn('arm', 'varchar(20)', (c) => c.notNull())
      .addColumn('name', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('class_arms_level_arm', ['level', 'arm'])
      .execute();

    await withId(db.schema.createTable('subjects'), dialect)
      .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
      .addColumn('code', 'varchar(10)', (c) => c.notNull().unique())
      // 'JSS', 'SSS' or 'ALL': which part of the school may offer it.
      .addColumn('section', 'varchar(3)', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull())
      .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('level_subjects')
      .addColumn('class_level', 'varchar(10)', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      // 1: every student of the level takes it; 0: an elective a student opts into.
      .addColumn('compulsory', 'integer', (c) => c.notNull().defaultTo(1))
      .addPrimaryKeyConstraint('level_subjects_pk', ['class_level', 'subject_id'])
      .execute();

    await withId(db.schema.createTable('streams'), dialect)
      .addColumn('name', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('stream_subjects')
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id').onDelete('cascade'))
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('stream_subjects_pk', ['stream_id', 'subject_id'])
      .execute();

    await db.schema
      .alterTable('students')
      .addColumn('stream_id', 'integer', (c) => c.references('streams.id').onDelete('set null'))
      .execute();
    await db.schema
      .createTable('student_subjects')
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      // 'add': takes it although the level or stream does not give it; 'drop': does not take it.
      .addColumn('choice', 'varchar(4)', (c) => c.notNull())
      .addPrimaryKeyConstraint('student_subjects_pk', ['student_id', 'subject_id'])
      .execute();

    await withId(db.schema.createTable('teaching_assignments'), dialect)
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('arm_id', 'integer', (c) => c.notNull().references('class_arms.id').onDelete('cascade'))
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('teaching_assignments_unique', ['session_id', 'arm_id', 'subject_id', 'staff_id'])
      .execute();
    // The permission check and "my classes" read a teacher's pairs for one session.
    await db.schema.createIndex('teaching_assignments_staff').on('teaching_assignments').columns(['session_id', 'staff_id']).execute();

    await db.schema
      .createTable('form_teachers')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('arm_id', 'integer', (c) => c.notNull().references('class_arms.id').onDelete('cascade'))
      .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('form_teachers_pk', ['session_id', 'arm_id'])
      .execute();
    await db.schema.createIndex('form_teachers_staff').on('form_teachers').columns(['session_id', 'staff_id']).execute();

    await db.schema
      .createTable('score_entry_windows')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(3)', (c) => c.notNull())
      // '' means every class level; a level's own row wins over it.
      .addColumn('class_level', 'varchar(10)', (c) => c.notNull())
      .addColumn('is_open', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('score_entry_windows_pk', ['session_id', 'term', 'class_level'])
      .execute();

    await db.schema
      .createTable('session_teaching')
      .addColumn('session_id', 'integer', (c) => c.primaryKey().references('academic_sessions.id').onDelete('cascade'))
      // 1: staff may write only the scores of their own arm-subject pairs in this session.
      .addColumn('enforce_assignments', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    // Existing classes become arms; existing subjects become the catalogue offered everywhere.
    const now = new Date().toISOString();
    const q = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const found = async (query: ReturnType<typeof sql<{ v: string }>>) => (await query.execute(db)).rows.map((r) => r.v);
    const classNames = new Set(OLD_CLASSES);
    for (const v of [
      ...(await found(sql<{ v: string }>`select distinct student_class as v from students`)),
      ...(await found(sql<{ v: string }>`select distinct student_class as v from results`)),
    ])
      if (CLASS_NAME.test(v)) classNames.add(v);
    const arms = [...classNames].map((name) => {
      const [, level, arm] = CLASS_NAME.exec(name)!;
      return { level, arm: arm!.trim(), name, retired: 0, created_at: now };
    });
    const usedArm = new Set<string>();
    const armRows = arms.filter((a) => {
      const k = `${a.level}|${a.arm}`;
      if (usedArm.has(k)) return false;
      usedArm.add(k);
      return true;
    });
    if (armRows.length) await q.insertInto('class_arms').values(armRows).execute();

    const subjectNames = new Map(OLD_SUBJECTS);
    for (const v of await found(sql<{ v: string }>`select distinct subject as v from results`)) {
      if (!subjectNames.has(v)) subjectNames.set(v, `S${String(subjectNames.size + 1).padStart(2, '0')}`);
    }
    await q
      .insertInto('subjects')
      .values([...subjectNames].map(([name, code], i) => ({ name, code, section: 'ALL', sort_order: i + 1, retired: 0, created_at: now })))
      .execute();
    await sql`insert into level_subjects (class_level, subject_id, compulsory)
      select l.level, s.id, 1 from subjects s cross join (${sql.join(
        LEVELS.map((l) => sql`select ${sql.lit(l)} as level`),
        sql` union all `,
      )}) l`.execute(db);
  },
});
