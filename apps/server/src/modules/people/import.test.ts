import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PEOPLE_MESSAGES as M, STUDENT_CSV_COLUMNS, dateDoesNotExist, importButtonLabel } from '@portal/domain';
import { withSchool, describeEachDatabase, login, type SignedIn, type TestContext } from '../../../test/helpers';

const HEADER = STUDENT_CSV_COLUMNS.join(',');
function studentLine(i: number, over: Partial<Record<(typeof STUDENT_CSV_COLUMNS)[number], string>> = {}, tag = 'imp'): string {
  const v = {
    first_name: `Pupil${i}`,
    last_name: 'Adeyemi',
    email: `pupil${i}.${tag}@import.school`,
    phone_number: '08031234567',
    gender: i % 2 ? 'F' : 'M',
    date_of_birth: '2011-05-14',
    student_class: 'JSS 1B',
    fathers_name: 'Mr Adeyemi',
    fathers_phone: '',
    mothers_name: 'Mrs Adeyemi',
    mothers_phone: '',
    home_address: '"4 Bode Thomas St, Surulere"',
    ...over,
  };
  return STUDENT_CSV_COLUMNS.map((c) => v[c]).join(',');
}
function studentCsv(lines: string[]): string {
  return [HEADER, ...lines].join('\n');
}

describeEachDatabase('CSV import and export', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));

  const count = async () =>
    Number(
      (
        await ctx.handle.db
          .selectFrom('students')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const call = (auth: SignedIn, url: string, csv: string) => ctx.app.inject({ method: 'POST', url, headers: auth.auth, payload: { csv } });

  it('serves the CSV templates', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/students/import/template/', headers: staff.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.replace(/^\uFEFF/, '').trim()).toBe(HEADER);
    const st = await ctx.app.inject({ method: 'GET', url: '/api/staff/import/template/', headers: admin.auth });
    expect(st.body.replace(/^\uFEFF/, '').trim()).toBe(
      'username,first_name,last_name,email,phone_number,gender,designation,department,marital_status,qualifications,employment_date,bank_account,tax_id',
    );
  });

  it('preview reports per-row errors naming row and field, and duplicates in the file and in the database', async () => {
    const csv = studentCsv([
      studentLine(1, {}, 'pv'),
      studentLine(2, { email: 'not-an-email', phone_number: '123' }, 'pv'),
      studentLine(3, { email: 'pupil1.pv@import.school' }, 'pv'),
      studentLine(4, { email: staff.email }, 'pv'),
      studentLine(5, { student_class: 'JSS 9Z', date_of_birth: '31/02/2011', first_name: '' }, 'pv'),
    ]);
    const before = await count();
    const res = await call(staff, '/api/students/import/preview/', csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.rows).toBe(5);
    expect(body.valid).toBe(1);
    expect(body.errors).toEqual([
      { row: 3, field: 'email', message: 'Invalid email format' },
      { row: 3, field: 'phone_number', message: 'Invalid phone number format' },
      { row: 6, field: 'first_name', message: 'First name is required' },
      { row: 6, field: 'date_of_birth', message: dateDoesNotExist('31/02/2011') },
      { row: 6, field: 'student_class', message: M.invalidClass },
    ]);
    expect(body.duplicates).toEqual([
      { row: 4, field: 'email', message: `${M.duplicateInFile} (row 2)` },
      { row: 5, field: 'email', message: M.duplicateInDatabase },
    ]);
    expect(body.sample[0]).toMatchObject({ first_name: 'Pupil1', student_class: 'JSS 1B', home_address: '4 Bode Thomas St, Surulere' });
    expect(await count()).toBe(before);
  });

  it('accepts any current arm of the school and refuses a class it does not have or has retired', async () => {
    await ctx.handle.db
      .insertInto('class_arms')
      .values([
        { level: 'JSS 1', arm: 'Gold', name: 'JSS 1 Gold', retired: 0, created_at: new Date().toISOString() },
        { level: 'JSS 1', arm: 'Z', name: 'JSS 1Z', retired: 1, created_at: new Date().toISOString() },
      ])
      .execute();
    const csv = studentCsv([
      studentLine(1, { student_class: 'jss 1 Gold' }, 'arm'),
      studentLine(2, { student_class: 'JSS 1C' }, 'arm'),
      studentLine(3, { student_class: 'JSS 1Z' }, 'arm'),
    ]);
    const res = await call(admin, '/api/students/import/preview/', csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().valid).toBe(1);
    expect(res.json().sample[0]).toMatchObject({ student_class: 'JSS 1 Gold' });
    expect(res.json().errors).toEqual([
      { row: 3, field: 'student_class', message: M.invalidClass },
      { row: 4, field: 'student_class', message: M.invalidClass },
    ]);
  });

  it('preview: "first rows" hold only rows that will be imported, and 31/02/2010 is named as a date that does not exist', async () => {
    const csv = studentCsv([
      studentLine(1, { date_of_birth: '31/02/2010' }, 'fr'),
      studentLine(2, { email: 'broken' }, 'fr'),
      studentLine(3, {}, 'fr'),
      studentLine(4, { email: 'pupil3.fr@import.school' }, 'fr'),
      studentLine(5, { date_of_birth: '14/05/2011' }, 'fr'),
      studentLine(6, { date_of_birth: 'last year' }, 'fr'),
    ]);
    const res = await call(admin, '/api/students/import/preview/', csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.valid).toBe(2);
    expect(body.errors).toEqual([
      { row: 2, field: 'date_of_birth', message: dateDoesNotExist('31/02/2010') },
      { row: 3, field: 'email', message: 'Invalid email format' },
      { row: 7, field: 'date_of_birth', message: M.invalidDate },
    ]);
    expect(M.invalidDate).toContain('DD/MM/YYYY');
    expect(body.duplicates).toEqual([{ row: 5, field: 'email', message: `${M.duplicateInFile} (row 4)` }]);
    expect(body.sample.map((r: Record<string, string>) => [r.row, r.first_name, r.date_of_birth])).toEqual([
      ['4', 'Pupil3', '2011-05-14'],
      ['6', 'Pupil5', '2011-05-14'],
    ]);
    expect(importButtonLabel(1, 'students')).toBe('Import 1 student');
    expect(importButtonLabel(3, 'students')).toBe('Import 3 students');
    expect(importButtonLabel(2, 'staff')).toBe('Import 2 staff');
  });

  it('a missing required column is reported against row 1', async () => {
    const res = await call(admin, '/api/students/import/preview/', 'first_name,last_name,email\nA,B,a@b.school');
    expect(res.json().errors).toEqual(
      // Phone and email are optional for students.
      ['date_of_birth', 'student_class', 'fathers_name', 'home_address'].map((field) => ({
        row: 1,
        field,
        message: M.importMissingColumn,
      })),
    );
    expect((await call(admin, '/api/students/import/preview/', HEADER)).json()).toEqual({ non_field_errors: [M.importEmpty] });
    expect((await call(admin, '/api/students/import/preview/', '"unclosed,quote\n')).json()).toEqual({
      non_field_errors: [M.importUnreadable],
    });
  });

  it('import is all or nothing: one bad row and nothing is stored', async () => {
    const before = await count();
    const counter = await ctx.handle.db.selectFrom('counters').select('value').where('name', '=', 'student').executeTakeFirst();
    const lines = Array.from({ length: 50 }, (_, i) => studentLine(i, {}, 'aon'));
    lines[37] = studentLine(37, { date_of_birth: 'yesterday' }, 'aon');
    const res = await call(admin, '/api/students/import/', studentCsv(lines));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      non_field_errors: [M.importHasErrors],
      errors: [{ row: 39, field: 'date_of_birth', message: M.invalidDate }],
      duplicates: [],
    });
    expect(await count()).toBe(before);
    const after = await ctx.handle.db.selectFrom('counters').select('value').where('name', '=', 'student').executeTakeFirst();
    expect(after?.value).toBe(counter?.value);
    const users = await ctx.handle.db.selectFrom('users').select('id').where('email', 'like', '%.aon@import.school').execute();
    expect(users).toEqual([]);
  });

  it('imports a valid file: consecutive admission numbers, one-time passwords shown once, first sign-in forces a change', async () => {
    const csv = [
      // Labels instead of keys, words instead of codes and a spreadsheet date: all understood.
      'First name,Last name,Email,Phone number,Gender,Date of birth,Class,Father’s name,Home address,Unused column',
      'Bola,Tinubu,bola.ok@import.school,0803 111 2222,Female,14/05/2011,jss2b,Mr Tinubu,1 Broad St,x',
      'Musa,Sani,musa.ok@import.school,08031112223,male,2010-01-31,SSS 1A,Mr Sani,2 Broad St,y',
    ].join('\r\n');
    const preview = (await call(staff, '/api/students/import/preview/', csv)).json();
    expect(preview.errors).toEqual([]);
    const res = await call(staff, '/api/students/import/', csv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toMatch(/argon2|password_hash/);
    const body = res.json();
    expect(body.created).toBe(2);
    const [a, b] = body.accounts;
    expect(a).toMatchObject({ first_name: 'Bola', last_name: 'Tinubu', email: 'bola.ok@import.school', group: 'JSS 2B' });
    expect(Number(b.public_id.slice(4))).toBe(Number(a.public_id.slice(4)) + 1);
    const stored = await ctx.app.inject({ method: 'GET', url: `/api/students/${a.public_id}/`, headers: admin.auth });
    expect(stored.json()).toMatchObject({ gender: 'F', date_of_birth: '2011-05-14', student_class: 'JSS 2B', phone_number: '08031112222' });
    const signIn = await login(ctx.app, 'student', a.email, a.one_time_password);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().data).toMatchObject({ admission_number: a.public_id, must_change_password: true });
    const auth = { authorization: `Bearer ${signIn.json().data.access}` };
    const change = await ctx.app.inject({
      method: 'POST',
      url: '/api/password/change/',
      headers: auth,
      payload: { old_password: a.one_time_password, new_password: 'Bola-Own-Pass-1' },
    });
    expect(change.statusCode).toBe(200);
    // The new password is stored with the full-cost argon2id settings.
    const user = await ctx.handle.db.selectFrom('users').select('password_hash').where('email', '=', a.email).executeTakeFirstOrThrow();
    expect(user.password_hash).toContain('m=19456');
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'import')
      .where('entity_id', '=', a.public_id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(staff.userId);
    // Importing the same file again: every row is now a duplicate in the database.
    const again = await call(staff, '/api/students/import/', csv);
    expect(again.statusCode).toBe(400);
    expect(again.json().duplicates).toHaveLength(2);
  });

  it('imports 2,000 students in one go, each with a distinct admission number', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => studentLine(i, { student_class: 'SSS 3A' }, 'bulk'));
    const res = await call(admin, '/api/students/import/', studentCsv(lines));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const accounts = res.json().accounts as { public_id: string; one_time_password: string }[];
    expect(accounts).toHaveLength(2000);
    expect(new Set(accounts.map((a) => a.public_id)).size).toBe(2000);
    expect(new Set(accounts.map((a) => a.one_time_password)).size).toBe(2000);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/students/search/?student_class=SSS%203A&limit=5',
      headers: admin.auth,
    });
    expect(listed.json().count).toBe(2000);
  });

  it('accepts files over the app-wide 1 MB body limit on the import routes only', async () => {
    const long = `"${'Plot 7, Admiralty Way, Lekki Phase 1, Lagos. '.repeat(6)}"`;
    const lines = Array.from({ length: 4000 }, (_, i) => studentLine(i, { home_address: long }, 'big'));
    const csv = studentCsv(lines);
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const res = await call(admin, '/api/students/import/preview/', csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 4000, valid: 4000 });
    const elsewhere = await ctx.app.inject({ method: 'POST', url: '/api/students/', headers: admin.auth, payload: { csv } });
    expect(elsewhere.statusCode).toBe(413);
  });

  describe('staff import', () => {
    const staffCsv = (rows: string[]) =>
      [
        'username,first_name,last_name,email,phone_number,gender,designation,department,marital_status,qualifications,employment_date',
        ...rows,
      ].join('\n');

    it('is admin only; staff may import students but not staff', async () => {
      const csv = staffCsv(['t1,Ada,Obi,t1@imp.school,08030000000,F,Teacher,Arts,Single,,']);
      for (const url of ['/api/staff/import/', '/api/staff/import/preview/']) {
        const res = await call(staff, url, csv);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: AUTH_MESSAGES.forbidden });
      }
    });

    it('imports staff with staff ids and one-time passwords; username duplicates reported', async () => {
      const dup = await call(
        admin,
        '/api/staff/import/preview/',
        staffCsv(['dupe,Ada,Obi,d1@imp.school,08030000000,F,Teacher,Arts,S,,', 'DUPE,Ade,Obi,d2@imp.school,08030000000,M,Teacher,Arts,,,']),
      );
      expect(dup.json().duplicates).toEqual([{ row: 3, field: 'username', message: `${M.duplicateUsernameInFile} (row 2)` }]);
      const res = await call(
        admin,
        '/api/staff/import/',
        staffCsv(['kemi,Kemi,Lawal,kemi@imp.school,08030000001,F,Bursar,Administration,Married,HND Accounting,2018-01-08']),
      );
      expect(res.statusCode, res.body).toBe(201);
      const [acct] = res.json().accounts;
      expect(acct).toMatchObject({ first_name: 'Kemi', group: 'Bursar' });
      expect(acct.public_id).toMatch(/^STAFF-\d{4}$/);
      const detail = await ctx.app.inject({ method: 'GET', url: `/api/staff/${acct.public_id}/`, headers: admin.auth });
      expect(detail.json()).toMatchObject({
        marital_status: 'M',
        username: 'kemi',
        profile_data: { qualifications: 'HND Accounting', employment_date: '2018-01-08' },
      });
      const signIn = await login(ctx.app, 'staff', 'kemi@imp.school', acct.one_time_password);
      expect(signIn.json().data.must_change_password).toBe(true);
    });
  });
});
