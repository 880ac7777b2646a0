import { expect, it } from 'vitest';
import { DEFAULT_SCHOOL_SETTINGS, PEOPLE_MESSAGES as M, admissionNumberSchema, formatAdmissionNumberAs, yearIn } from '@portal/domain';
import { createSession } from '../../db/factories';
import { studentBody, studentsCsv, withSchool, describeEachDatabase, type SignedIn, type TestContext } from '../../../test/helpers';

/** Admission numbers in the school's own format, a setting; existing numbers never change. */
describeEachDatabase('admission number format', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, auth: SignedIn, payload?: object) =>
    ctx.app.inject({ method, url, headers: auth.auth, ...(payload ? { payload } : {}) });
  const register = async () => {
    const res = await inject('POST', '/api/students/', staff, studentBody());
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ admission_number: string; email: string }>();
  };
  const setFormat = (format: string, who = admin) =>
    inject('PUT', '/api/settings/', who, { ...DEFAULT_SCHOOL_SETTINGS, admission_number_format: format });

  it('formats: prefix, year and zero-padded counter', () => {
    expect(formatAdmissionNumberAs('STU-{NNNN}', 1, 2026)).toBe('STU-0001');
    expect(formatAdmissionNumberAs('RMC/{YYYY}/{NNNN}', 12, 2026)).toBe('RMC/2026/0012');
    expect(formatAdmissionNumberAs('RMC/{YY}/{NNNNN}', 7, 2026)).toBe('RMC/26/00007');
    expect(admissionNumberSchema.parse(' rmc/2026/0012 ')).toBe('RMC/2026/0012');
  });

  it('default STU-0001 as before; an admin sets RMC/{YYYY}/{NNNN}: new registrations and imports use it, old numbers stay', async () => {
    expect((await inject('GET', '/api/settings/', admin)).json().admission_number_format).toBe('STU-{NNNN}');
    const before = await register();
    expect(before.admission_number).toMatch(/^STU-\d{4}$/);

    const saved = await setFormat('rmc/{yyyy}/{nnnn}');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().admission_number_format).toBe('RMC/{YYYY}/{NNNN}');

    const after = await register();
    const year = yearIn(DEFAULT_SCHOOL_SETTINGS.time_zone);
    expect(after.admission_number).toMatch(new RegExp(`^RMC/${year}/\\d{4}$`));
    // The existing number did not change.
    expect((await inject('GET', `/api/students/${before.admission_number}/`, admin)).json().admission_number).toBe(before.admission_number);

    const csv = studentsCsv([
      {
        first_name: 'Imported',
        last_name: 'Pupil',
        email: `imported.${Date.now()}@fmt.school`,
        phone_number: '08031234567',
        date_of_birth: '14/05/2011',
        student_class: 'JSS 1A',
        fathers_name: 'Mr Pupil',
        home_address: 'Lagos',
      },
    ]);
    const imported = await inject('POST', '/api/students/import/', admin, { csv });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().accounts[0].public_id).toMatch(new RegExp(`^RMC/${year}/\\d{4}$`));
    await setFormat('STU-{NNNN}');
  });

  it('numbers with slashes work in every lookup: URL-encoded path, lower case, update, reset, withdraw, results, sign-in', async () => {
    await setFormat('RMC/{YYYY}/{NNNN}');
    const st = await register();
    await setFormat('STU-{NNNN}');
    const n = st.admission_number;
    const path = `/api/students/${encodeURIComponent(n)}/`;
    const got = await inject('GET', path, admin);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().admission_number).toBe(n);
    expect((await inject('GET', `/api/students/${encodeURIComponent(n.toLowerCase())}/`, staff)).statusCode).toBe(200);
    const updated = await inject('PUT', path, staff, { first_name: 'Renamed', last_name: 'Pupil', email: st.email });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().admission_number).toBe(n);
    expect((await inject('GET', `${path}history/`, staff)).json()).toEqual({ results: 0, payments: 0 });
    expect((await inject('POST', `${path}reset-password/`, admin)).statusCode).toBe(200);

    const session = await createSession(ctx.handle.db, '2030/2031');
    const saved = await inject('POST', '/api/results/', staff, {
      admission_number: n.toLowerCase(),
      session_id: session.id,
      term: '1st',
      student_class: 'JSS 2A',
      subjects: [{ name: 'Mathematics', score: 66 }],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const results = await inject('GET', `/api/results/?admission_number=${encodeURIComponent(n)}&session_id=${session.id}&term=1st`, staff);
    expect(results.statusCode, results.body).toBe(200);
    expect(JSON.stringify(results.json())).toContain(n);

    expect((await inject('POST', `${path}withdraw/`, admin)).statusCode).toBe(200);
  });

  it('a student signs in and reads their own record under a school-format number', async () => {
    await setFormat('RMC/{YY}/{NNN}');
    const res = await inject(
      'POST',
      '/api/students/',
      admin,
      studentBody({ password: 'Own-Chosen-Pass-9', confirm_password: 'Own-Chosen-Pass-9' }),
    );
    await setFormat('STU-{NNNN}');
    const st = res.json<{ admission_number: string; email: string }>();
    expect(st.admission_number).toMatch(/^RMC\/\d{2}\/\d{3,}$/);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/student/login/',
      payload: { email: st.email, password: 'Own-Chosen-Pass-9' },
    });
    expect(login.json().data.admission_number).toBe(st.admission_number);
  });

  it('refuses a format without one counter or with other characters; only an admin may change it', async () => {
    for (const [format, message] of [
      ['RMC/{YYYY}', /one counter/],
      ['RMC {NNNN}', /letters, digits/],
      ['RMC/{MM}/{NNNN}', /between braces/],
    ] as const) {
      const res = await setFormat(format);
      expect(res.statusCode, format).toBe(400);
      expect(res.json().admission_number_format[0]).toMatch(message);
    }
    expect((await setFormat('RMC/{NNNN}', staff)).statusCode).toBe(403);
    expect((await inject('GET', '/api/settings/', admin)).json().admission_number_format).toBe('STU-{NNNN}');
    // Messages of the lookup forms no longer insist on STU-.
    expect(M.invalidAdmissionNumber).not.toMatch(/must be STU-/);
  });
});
