import { randomBytes } from 'node:crypto';
import { Migrator, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PEOPLE_MESSAGES as M } from '@portal/domain';
import { createResults } from '../../db/factories';
import { createDatabase, migrateToLatest, nowIso } from '../../db/index';
import { StaticMigrationProvider } from '../../db/migrations/index';
import {
  withSchool,
  DIALECTS,
  TEST_PASSWORD,
  describeEachDatabase,
  insertStudentUser,
  login,
  runPgStatement,
  signInStudent,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

/** Withdrawing a student keeps the record, results and payments; sign-in off. */
describeEachDatabase('withdrawing a student', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => ({ ctx, admin, staff, sessionId } = s));

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth?: SignedIn, payload?: object) =>
    ctx.app.inject({ method, url, headers: auth?.auth ?? {}, ...(payload ? { payload } : {}) });

  async function studentWithHistory(arm: 'JSS 1A' | 'JSS 2B' = 'JSS 2B') {
    const st = await signInStudent(ctx, { arm });
    await createResults(ctx.handle.db, [
      { studentId: st.id, sessionId, term: '1st', arm, subject: 'Mathematics', score: 71 },
      { studentId: st.id, sessionId, term: '1st', arm, subject: 'English Language', score: 64 },
    ]);
    await ctx.handle.db
      .insertInto('payments')
      .values({
        reference: `REF-${st.admissionNumber}-${Date.now()}`,
        student_id: st.id,
        admission_number: st.admissionNumber,
        full_name: 'Ada Eze',
        current_class: arm,
        current_session: '2025/2026',
        session_id: sessionId,
        term: '1st',
        email: st.email,
        phone_number: '',
        amount_kobo: 8_500_000,
        currency: 'NGN',
        status: 'successful',
        provider: 'simulator',
        created_at: nowIso(),
        updated_at: nowIso(),
      } as never)
      .execute();
    return st;
  }

  it('reports what a delete would remove, then withdraws: record, results and payments kept; sign-in refused with a clear message', async () => {
    const st = await studentWithHistory();
    const history = await inject('GET', `/api/students/${st.admissionNumber}/history/`, staff);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json()).toEqual({ results: 2, payments: 1 });

    const res = await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`, staff);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ admission_number: st.admissionNumber, status: 'withdrawn' });
    expect(res.json().withdrawn_at).toEqual(expect.any(String));

    // Kept: the record (lookups still find it), the results and the payment.
    const got = await inject('GET', `/api/students/${st.admissionNumber}/`, admin);
    expect(got.json()).toMatchObject({ status: 'withdrawn' });
    expect((await inject('GET', `/api/students/${st.admissionNumber}/history/`, admin)).json()).toEqual({ results: 2, payments: 1 });

    // Sign-in off: the old token dies, and the right password gets a message that says why.
    expect((await inject('GET', `/api/students/${st.admissionNumber}/`, st)).statusCode).toBe(401);
    const again = await login(ctx.app, 'student', st.email);
    expect(again.statusCode).toBe(403);
    expect(again.json().errors.non_field_errors).toEqual([M.withdrawnCannotSignIn]);
    // A wrong password learns nothing more than before.
    const wrong = await login(ctx.app, 'student', st.email, 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);

    // Audited.
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'student')
      .where('entity_id', '=', st.admissionNumber)
      .execute();
    expect(audit.map((a) => a.action)).toContain('withdraw');
  });

  it('a withdrawn record is read-only: no update, password reset or new results', async () => {
    const st = await studentWithHistory('JSS 1A');
    await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`, admin);
    const update = await inject('PUT', `/api/students/${st.admissionNumber}/`, admin, {
      first_name: 'Changed',
      last_name: 'Name',
      email: st.email,
    });
    expect(update.statusCode).toBe(409);
    expect(update.json()).toEqual({ detail: M.studentWithdrawn });
    expect((await inject('POST', `/api/students/${st.admissionNumber}/reset-password/`, admin)).statusCode).toBe(409);
    const results = await inject('POST', '/api/results/', staff, {
      admission_number: st.admissionNumber,
      session_id: sessionId,
      term: '2nd',
      student_class: 'JSS 1A',
      subjects: [{ name: 'Mathematics', score: 50 }],
    });
    expect(results.statusCode).toBe(409);
    expect(results.json()).toEqual({ detail: M.studentWithdrawn });
    expect((await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`, admin)).json()).toEqual({
      detail: M.studentAlreadyWithdrawn,
    });
  });

  it('class lists and the payments class report leave withdrawn students out; asking for them shows them', async () => {
    const stay = await signInStudent(ctx, { arm: 'SSS 1B' });
    const leave = await signInStudent(ctx, { arm: 'SSS 1B' });
    await inject('POST', `/api/students/${leave.admissionNumber}/withdraw/`, admin);
    const list = await inject('GET', '/api/students/search/?student_class=SSS%201B', staff);
    expect(list.json().results.map((s: { admission_number: string }) => s.admission_number)).toEqual([stay.admissionNumber]);
    expect(list.json().count).toBe(1);
    const withdrawn = await inject('GET', '/api/students/list/?student_class=SSS%201B&status=withdrawn', staff);
    expect(withdrawn.json().map((s: { admission_number: string }) => s.admission_number)).toEqual([leave.admissionNumber]);
    const all = await inject('GET', '/api/students/list/?student_class=SSS%201B&status=all', staff);
    expect(all.json()).toHaveLength(2);
    const report = await inject('GET', '/api/payments/report/?class=SSS%201B', staff);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().map((r: { admission_number: string }) => r.admission_number)).toEqual([stay.admissionNumber]);
  });

  it('readmit turns sign-in back on; only staff and admin may withdraw or readmit', async () => {
    const st = await studentWithHistory();
    const other = await signInStudent(ctx);
    expect((await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`, other)).statusCode).toBe(403);
    expect((await inject('GET', `/api/students/${st.admissionNumber}/history/`, other)).statusCode).toBe(403);
    expect((await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`)).statusCode).toBe(401);
    await inject('POST', `/api/students/${st.admissionNumber}/withdraw/`, admin);
    const back = await inject('POST', `/api/students/${st.admissionNumber}/readmit/`, staff);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'active', withdrawn_at: null });
    expect((await login(ctx.app, 'student', st.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await inject('POST', `/api/students/${st.admissionNumber}/readmit/`, staff)).json()).toEqual({
      detail: M.studentNotWithdrawn,
    });
  });

  it('delete stays for mistakes: it removes the student and their results', async () => {
    const st = await studentWithHistory();
    expect((await inject('DELETE', `/api/students/${st.admissionNumber}/`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/students/${st.admissionNumber}/`, admin)).statusCode).toBe(404);
  });
});

describe('migration 0013 on a database of the previous release', () => {
  for (const dialect of DIALECTS) {
    it(`keeps every student, all active [${dialect}]`, async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      if (dialect === 'postgres') await runPgStatement(url, `create schema ${schema}`);
      const handle = dialect === 'postgres' ? createDatabase(url, { pgSchema: schema, pgPoolSize: 2 }) : createDatabase('sqlite::memory:');
      try {
        const migrator = new Migrator({
          db: handle.db,
          provider: new StaticMigrationProvider(handle.dialect),
          ...(dialect === 'postgres' ? { migrationTableSchema: schema } : {}),
        });
        const first = await migrator.migrateTo('0005_indexes');
        expect(first.error).toBeUndefined();
        const now = nowIso();
        const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
        const user = await insertStudentUser(handle.db, 'old@school.test', 0);
        await db
          .insertInto('students')
          .values({
            user_id: user.id,
            admission_number: 'STU-0042',
            first_name: 'Old',
            last_name: 'Record',
            phone_number: '08031234567',
            gender: 'F',
            date_of_birth: '2011-01-01',
            student_class: 'JSS 3A',
            fathers_name: 'Mr Record',
            fathers_phone: '',
            mothers_name: '',
            mothers_phone: '',
            home_address: 'Somewhere',
            created_at: now,
            updated_at: now,
          })
          .execute();
        await migrateToLatest(handle);
        const rows = await handle.db.selectFrom('students').select(['admission_number', 'first_name', 'status', 'withdrawn_at']).execute();
        expect(rows).toEqual([{ admission_number: 'STU-0042', first_name: 'Old', status: 'active', withdrawn_at: null }]);
      } finally {
        await handle.destroy();
        if (dialect === 'postgres') await runPgStatement(url, `drop schema ${schema} cascade`);
      }
    });
  }
});
