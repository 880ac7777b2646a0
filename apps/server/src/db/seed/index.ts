import type { FastifyBaseLogger } from 'fastify';
import { CLASSES, classLevelOf, DEMO_SCHOOL_SETTINGS } from '@portal/domain';
import type { Config } from '../../config';
import { generateOneTimePassword } from '../../lib/passwords';
import { createAdmin, createResults, createSession, createStaff, createStudent, type ResultInput } from '../factories';
import { nowIso, type DB } from '../index';
import { inSlices } from '../slices';
import '../../modules/payments/payments.tables';
import '../../modules/results/report-cards.tables';
import '../../modules/attendance/attendance.tables';
import '../../modules/auth/capabilities.tables';
import { schoolYearCalendar } from './calendar';
import {
  SCHOOL_ARMS,
  seedTeachingStructure,
  studentChoice,
  studentSubjectNames,
  teacherOfCell,
  teachingCells,
  teachingRuns,
} from './teaching';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/**
 * Where the sign-ins made on an empty database go: `npm start` collects them and prints them last,
 * after the server listens (main.ts); without a list (tests, scripts) they are written at once.
 */
export type SignInNotes = string[];
function note(notes: SignInNotes | undefined, text: string): void {
  if (notes) notes.push(text);
  else process.stdout.write(`\n${text}\n\n`);
}

/** On an empty database: the first admin from ADMIN_EMAIL/ADMIN_PASSWORD, or one with a one-time password. */
export async function ensureFirstAdmin(db: DB, config: Config, log: Log, notes?: SignInNotes): Promise<void> {
  const any = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (any) return;
  if (config.adminEmail && config.adminPassword) {
    await createAdmin(db, { email: config.adminEmail, password: config.adminPassword, username: 'admin' });
    log.info({ email: config.adminEmail }, 'first admin created from ADMIN_EMAIL');
    return;
  }
  const email = config.adminEmail ?? 'admin@school.local';
  const password = generateOneTimePassword();
  await createAdmin(db, { email, password, username: 'admin', mustChangePassword: true });
  // Printed once, on purpose: this is the only way into a new install without configuration.
  note(notes, `  First admin created.\n    email:    ${email}\n    password: ${password}   (one-time: you will be asked to change it)`);
  log.warn({ email }, 'first admin created with a one-time password (printed once on stdout)');
}

/** Names of the demo school (the benchmark school extends them). */
export const FIRST_NAMES = [
  'Adaeze',
  'Chinedu',
  'Folake',
  'Ibrahim',
  'Ngozi',
  'Tunde',
  'Amaka',
  'Emeka',
  'Zainab',
  'Segun',
  'Kemi',
  'Obinna',
  'Halima',
  'Yusuf',
  'Bisi',
  'Ifeanyi',
  'Aisha',
  'Femi',
  'Chioma',
  'Musa',
];
export const LAST_NAMES = [
  'Okafor',
  'Adeyemi',
  'Bello',
  'Eze',
  'Ogunleye',
  'Abubakar',
  'Nwosu',
  'Balogun',
  'Okonkwo',
  'Lawal',
  'Uche',
  'Adebayo',
  'Danjuma',
  'Obi',
  'Ajayi',
];

/**
 * The demo accounts' passwords: random on every new demo school and printed once, so
 * a demo left running is not open to anyone who has read the README. Tests fix them with
 * DEMO_PASSWORD / DEMO_STAFF_PASSWORD / DEMO_STUDENT_PASSWORD (refused in production).
 */
export function demoPasswords(fixed: Config['demoPasswords']): { staff: string; student: string } {
  return { staff: fixed?.staff ?? generateOneTimePassword(), student: fixed?.student ?? generateOneTimePassword() };
}

/** A deterministic pseudo-random sequence, so the demo school is the same on every machine. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/**
 * Seeds a small demo school on an empty database (DEMO_DATA=1). Returns the demo sign-ins.
 * The earlier release's twelve classes come first, in their order, so STU-0001.. keep their classes;
 * the C arms follow. Enforcement stays off and score entry open: every demo staff member may still
 * enter every score, as the e2e suite does.
 */
export async function seedDemoSchool(
  db: DB,
  log: Log,
  studentsPerClass = 4,
  fixedPasswords?: Config['demoPasswords'],
  notes?: SignInNotes,
): Promise<void> {
  const has = await db.selectFrom('students').select('id').limit(1).executeTakeFirst();
  const hasSession = await db.selectFrom('academic_sessions').select('id').limit(1).executeTakeFirst();
  if (has || hasSession) return;
  const rand = seeded(2026);
  const DEMO_PASSWORDS = demoPasswords(fixedPasswords);
  // The demo school is the spec's sample school; a new install stays neutral until its admin saves.
  await db
    .insertInto('settings')
    .values({ key: 'school', value: JSON.stringify(DEMO_SCHOOL_SETTINGS) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  await createSession(db, '2024/2025');
  const session = await createSession(db, '2025/2026', true);
  // The next session, dated in the calendar only: its first term holds November 2026, so
  // the term-based screens open on a real term. 2025/2026 stays the session marked current (results, fees).
  const next = await createSession(db, '2026/2027');
  const structure = await seedTeachingStructure(db);

  // A teacher for each subject in each part of the school (junior, senior); the bursar teaches nothing.
  const runs = teachingRuns();
  const staffAccounts = [
    { firstName: 'Grace', lastName: 'Okafor', designation: 'Mathematics Teacher', department: 'Sciences' },
    { firstName: 'Yusuf', lastName: 'Bello', designation: 'English Teacher', department: 'Languages' },
    { firstName: 'Funmi', lastName: 'Adeyemi', designation: 'Bursar', department: 'Administration' },
    ...runs.slice(2).map((r, k) => ({
      firstName: FIRST_NAMES[(k * 3 + 5) % FIRST_NAMES.length]!,
      lastName: LAST_NAMES[(k + 3) % LAST_NAMES.length]!,
      designation: `${r.subject} Teacher`,
      department: 'Teaching',
    })),
  ];
  const staff = [];
  for (const [i, s] of staffAccounts.entries()) {
    staff.push(
      await createStaff(db, {
        ...s,
        email: `staff${i + 1}@demo.school`,
        password: DEMO_PASSWORDS.staff,
        gender: i === 1 || (i > 2 && i % 2) ? 'M' : 'F',
      }),
    );
  }
  const teachers = staff.filter((_, i) => i !== 2);
  // The bursar: Funmi Adeyemi, staff3, who teaches nothing, holds the bursar capability.
  const bursar = staff[2]!;
  await db
    .insertInto('staff_capabilities')
    .values({ user_id: bursar.userId, capability: 'bursar', granted_by: null, granted_at: nowIso() })
    .execute();
  await assignDemoTeachers(db, session.id, structure, teachers);
  // The same teachers and form teachers in the next session, whose first term the calendar holds today.
  await assignDemoTeachers(db, next.id, structure, teachers);

  const students = [];
  const results: ResultInput[] = [];
  const choices: { studentId: number; stream: string | null; add: string[] }[] = [];
  const classes = [...CLASSES, ...SCHOOL_ARMS.map((a) => a.name).filter((n) => !CLASSES.includes(n))];
  let n = 0;
  for (const cls of classes) {
    const level = classLevelOf(cls)!;
    for (let k = 0; k < studentsPerClass; k++) {
      const first = FIRST_NAMES[n % FIRST_NAMES.length]!;
      const last = LAST_NAMES[(n * 7) % LAST_NAMES.length]!;
      n++;
      const st = await createStudent(db, {
        firstName: first,
        lastName: last,
        arm: cls,
        gender: n % 2 ? 'F' : 'M',
        email: `student${n}@demo.school`,
        password: DEMO_PASSWORDS.student,
      });
      students.push(st);
      const choice = studentChoice(n, level);
      choices.push({ studentId: st.id, ...choice });
      for (const term of ['1st', '2nd'] as const) {
        for (const subject of studentSubjectNames(level, choice)) {
          results.push({
            studentId: st.id,
            sessionId: session.id,
            term,
            arm: cls,
            subject,
            score: Math.round(35 + rand() * 63),
            remarks: '',
          });
        }
      }
    }
  }
  await saveDemoChoices(db, structure, choices);
  await createResults(db, results);
  // Term fees for the current session, so a demo student's payment form shows what is owed.
  const now = nowIso();
  // Optional items (the school bus) are shown to students but are not part of what they owe.
  await db
    .insertInto('fee_items')
    .values(
      classes.flatMap((cls) =>
        (['1st', '2nd'] as const).flatMap((term) => [
          {
            student_class: cls,
            session_id: session.id,
            term,
            name: 'Tuition',
            name_key: 'tuition',
            amount_kobo: (cls.startsWith('SSS') ? 55_000 : 45_000) * 100 - (term === '2nd' ? 5_000 * 100 : 0),
            compulsory: 1,
            description: `${term === '1st' ? 'First' : 'Second'} term tuition`,
            created_at: now,
            updated_at: now,
          },
          {
            student_class: cls,
            session_id: session.id,
            term,
            name: 'School bus',
            name_key: 'school bus',
            amount_kobo: 15_000 * 100,
            compulsory: 0,
            description: 'Optional: morning and afternoon routes',
            created_at: now,
            updated_at: now,
          },
        ]),
      ),
    )
    .execute();
  // The school calendar (attendance): the current session's terms, breaks and holidays; no registers.
  const calendar = schoolYearCalendar(session.id, Number(session.name.slice(0, 4)));
  const nextCalendar = schoolYearCalendar(next.id, Number(next.name.slice(0, 4)));
  calendar.terms.push(...nextCalendar.terms);
  calendar.events.push(...nextCalendar.events);
  // The term dates the report cards print, on the current session's term rows: when the next term
  // begins. How often school opened is counted from the calendar (a typed number would override it).
  const nextTermBegins: Record<string, string> = { '1st': '2026-01-12', '2nd': '2026-04-27', '3rd': '2026-09-14' };
  await db
    .insertInto('school_terms')
    .values(
      calendar.terms.map((t) => ({
        ...t,
        next_term_begins: t.session_id === session.id ? (nextTermBegins[t.term] ?? null) : null,
        times_opened: null,
        updated_by: null,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('calendar_events')
    .values(calendar.events.map((e) => ({ ...e, created_by: null, created_at: now })))
    .execute();
  const s1 = students[0]!;
  note(
    notes,
    [
      '  Demo school seeded (DEMO_DATA). Demo sign-ins (printed once; every demo staff member shares the staff',
      '  password, every demo student the student password):',
      `    staff:   ${staff[0]!.email} / ${DEMO_PASSWORDS.staff}   (${staff[0]!.staffId}, form teacher of JSS 1A)`,
      `    bursar:  ${bursar.email} / ${DEMO_PASSWORDS.staff}   (${bursar.staffId}, holds the bursar capability)`,
      `    student: ${s1.email} / ${DEMO_PASSWORDS.student}   (${s1.admissionNumber}, JSS 1A)`,
      `    (${students.length} students in ${classes.length} classes, ${staff.length} staff, results for 2025/2026 1st and 2nd term)`,
    ].join('\n'),
  );
  log.info({ students: students.length, staff: staff.length }, 'demo school seeded');
}

type Structure = Awaited<ReturnType<typeof seedTeachingStructure>>;

/** A teacher for every arm-subject pair of the session, and a form teacher for every arm. */
async function assignDemoTeachers(db: DB, sessionId: number, structure: Structure, teachers: { id: number }[]): Promise<void> {
  const now = nowIso();
  const cells = teachingCells();
  /** The row of a teacher (by index) in an arm of the session: an assignment's or a form teacher's. */
  const inArm = (arm: string, teacher: number) => ({
    session_id: sessionId,
    arm_id: structure.arms.get(arm)!,
    staff_id: teachers[teacher]!.id,
  });
  await db
    .insertInto('teaching_assignments')
    .values(
      cells.map((c, i) => ({
        ...inArm(c.arm, teacherOfCell(i, cells.length, teachers.length)),
        subject_id: structure.subjects.get(c.subject)!,
        created_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('form_teachers')
    .values(SCHOOL_ARMS.map((a, i) => inArm(a.name, i % teachers.length)))
    .execute();
}

/** Senior students' streams and everyone's electives. */
async function saveDemoChoices(db: DB, structure: Structure, choices: { studentId: number; stream: string | null; add: string[] }[]) {
  for (const [stream, id] of structure.streams) {
    const ids = choices.filter((c) => c.stream === stream).map((c) => c.studentId);
    if (ids.length) await db.updateTable('students').set({ stream_id: id }).where('id', 'in', ids).execute();
  }
  const rows = choices.flatMap((c) =>
    c.add.map((name) => ({ student_id: c.studentId, subject_id: structure.subjects.get(name)!, choice: 'add' as const })),
  );
  await inSlices(rows, 200, (slice) => db.insertInto('student_subjects').values(slice).execute());
}
