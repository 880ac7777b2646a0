import type { SchoolClass } from '@portal/domain';
import { nowIso, type DB } from '../src/db/index';
import { createSession, createStudent, signInStudent, TEST_PASSWORD, type SignedIn, type TestContext } from './helpers';

export type Auth = { authorization: string };

/** The senior classes' scheme the score grid and CSV import tests mark by: two CAs of 20 and a 60-mark exam. */
export const SSS_SCHEME = [
  { name: 'First Continuous Assessment', label: 'CA1', max: 20 },
  { name: 'Second Continuous Assessment', label: 'CA2', max: 20 },
  { name: 'Examination', label: 'Exam', max: 60 },
];

/** `SSS_SCHEME`, to one decimal, as the SSS classes' scheme of the session (written straight to the table). */
export async function putSssScheme(db: DB, sessionId: number): Promise<void> {
  await db
    .insertInto('assessment_schemes')
    .values({
      session_id: sessionId,
      level: 'SSS',
      components: JSON.stringify(SSS_SCHEME),
      precision: 'one_decimal',
      updated_by: null,
      updated_at: nowIso(),
    })
    .execute();
}
export type Term = '1st' | '2nd' | '3rd';

/**
 * Request helpers of the results tests, for the test context `getCtx` returns (made in beforeAll). Every test builds what it
 * reads with these (students, sessions, a ranked class), so a test passes alone (`-t`) and in any
 * order: nothing depends on what an earlier test stored.
 */
export function resultsKit(getCtx: () => TestContext, writer: () => SignedIn) {
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, auth?: Auth, payload?: unknown) =>
    getCtx().app.inject({ method, url, headers: auth ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  let seq = 0;
  /** A student (not signed in) of the given class, named `firstName L001`, `L002`… */
  async function newStudent(arm: SchoolClass = 'JSS 2A', firstName = 'Tolu') {
    seq++;
    return createStudent(getCtx().handle.db, {
      email: `r${seq}-${Date.now()}@test.school`,
      password: TEST_PASSWORD,
      firstName,
      lastName: `L${String(seq).padStart(3, '0')}`,
      arm,
    });
  }

  let sessions = 0;
  /**
   * A new academic session of its own, so class-wide reads see only this test's rows; not current
   * unless asked (a teacher writes only into the current session).
   */
  async function newSession(current = false) {
    const start = 2100 + sessions++;
    return createSession(getCtx().handle.db, `${start}/${start + 1}`, current);
  }

  /**
   * Runs `fn` with `sessionId` as the current session, then puts the school's current session back:
   * teachers write only into the current session, and seeding a session of a test's own
   * goes through the teacher's API.
   */
  async function asCurrent<T>(sessionId: number, fn: () => Promise<T>): Promise<T> {
    const db = getCtx().handle.db;
    const before = await db.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirst();
    const mark = async (id: number | undefined) => {
      await db.updateTable('academic_sessions').set({ is_current: 0 }).where('is_current', '=', 1).execute();
      if (id !== undefined) await db.updateTable('academic_sessions').set({ is_current: 1 }).where('id', '=', id).execute();
    };
    await mark(sessionId);
    try {
      return await fn();
    } finally {
      await mark(before?.id);
    }
  }

  /** POST /api/results/ in the bulk shape, as the writer (staff unless told). */
  function bulk(
    admission: string,
    arm: string,
    subjects: { name: string; score: unknown; remarks?: string; version?: number }[],
    term: string,
    sessionId: number,
  ) {
    return inject('POST', '/api/results/', writer().auth, {
      admission_number: admission,
      session_id: sessionId,
      term,
      student_class: arm,
      subjects,
    });
  }

  /**
   * A JSS 1A class of four in a session of its own, with results for all three terms: the signed-in
   * student Chiamaka Obi and classmates Bola, Chidi, Dayo. First-term averages 80, 80 (a tie),
   * 70 over 2 subjects (Chidi has no French), 65; the 2nd term is 10 lower, the 3rd 5 higher.
   * `publish` lists the terms an admin releases through the API.
   */
  async function rankedClass(opts: { admin?: SignedIn; publish?: Term[] } = {}) {
    const session = await newSession();
    const cls = 'JSS 1A' as const;
    const student = await signInStudent(getCtx(), { firstName: 'Chiamaka', lastName: 'Obi', arm: cls });
    const mates = [await newStudent(cls, 'Bola'), await newStudent(cls, 'Chidi'), await newStudent(cls, 'Dayo')];
    const scores: [string, number][][] = [
      [
        ['Mathematics', 90],
        ['English Language', 70],
        ['French', 80],
      ],
      [
        ['Mathematics', 70],
        ['English Language', 90],
        ['French', 80],
      ],
      [
        ['Mathematics', 60],
        ['English Language', 80],
      ],
      [
        ['Mathematics', 65],
        ['English Language', 65],
        ['French', 65],
      ],
    ];
    await asCurrent(session.id, async () => {
      for (const term of ['1st', '2nd', '3rd'] as const) {
        for (const [i, st] of [student, ...mates].entries()) {
          const bump = term === '1st' ? 0 : term === '2nd' ? -10 : 5;
          const res = await bulk(
            st.admissionNumber,
            cls,
            scores[i]!.map(([name, score]) => ({ name, score: Math.min(100, score + bump) })),
            term,
            session.id,
          );
          if (res.statusCode !== 201) throw new Error(`seeding results failed: ${res.statusCode} ${res.body}`);
        }
      }
    });
    for (const term of opts.publish ?? []) {
      if (!opts.admin) throw new Error('publishing needs an admin');
      const res = await inject('POST', '/api/results/publications/', opts.admin.auth, { session_id: session.id, term, student_class: cls });
      if (res.statusCode !== 201) throw new Error(`publishing failed: ${res.statusCode} ${res.body}`);
    }
    return { session, sessionId: session.id, cls, student, mates };
  }

  return { inject, newStudent, newSession, asCurrent, bulk, rankedClass };
}
