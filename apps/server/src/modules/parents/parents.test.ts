import { expect, it } from 'vitest';
import { AUTH_MESSAGES, PARENT_MESSAGES, type ParentConflict, type ParentDetail } from '@portal/domain';
import {
  createStudent as createStudentRow,
  describeEachDatabase,
  fetchMe,
  studentBody,
  studentsCsv,
  TEST_PASSWORD,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { family, freshPhone, inviteAgain, parentLogin, signInParent } from '../../../test/parents-fixtures';

describeEachDatabase('parents: linking from the students’ phones, conflicts, invitations and sign-in', (dialect) => {
  let ctx: TestContext, admin: SignedIn;
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => ({ ctx, admin } = s));

  const get = (url: string, who: SignedIn = admin) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const post = (url: string, payload: unknown, who: SignedIn = admin) =>
    ctx.app.inject({ method: 'POST', url, headers: who.auth, payload: payload as Record<string, unknown> });
  const parentByPhone = async (phone: string) => {
    const list = await get(`/api/parents/?search=${encodeURIComponent(phone.slice(4))}`);
    expect(list.statusCode, list.body).toBe(200);
    const found = list.json<{ results: { id: number; phone: string }[] }>().results.find((p) => p.phone === phone);
    return found ? (await get(`/api/parents/${found.id}/`)).json<ParentDetail>() : undefined;
  };
  const putStudent = (admissionNumber: string, over: Record<string, unknown>) =>
    ctx.app.inject({ method: 'PUT', url: `/api/students/${admissionNumber}/`, headers: admin.auth, payload: studentBody(over) });
  const createStudent = async (over: Record<string, unknown>) => {
    const res = await post('/api/students/', studentBody(over));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ admission_number: string }>().admission_number;
  };

  it('the student form links the father and the mother by their phones, in any spelling, siblings to one account', async () => {
    const dad = freshPhone();
    const mum = freshPhone();
    const local = (p: string) => `0${p.slice(4, 7)} ${p.slice(7, 10)} ${p.slice(10)}`;
    const first = await createStudent({
      fathers_name: 'Mr Tunde Bakare',
      fathers_phone: local(dad),
      mothers_name: 'Mrs Bola Bakare',
      mothers_phone: mum,
    });
    // A sibling's form writes the father's number another way and his name without the title, in another order.
    const second = await createStudent({
      first_name: 'Kemi',
      fathers_name: 'bakare tunde',
      fathers_phone: `234-${dad.slice(4, 7)}-${dad.slice(7)}`,
      mothers_name: '',
      mothers_phone: '',
    });
    const father = (await parentByPhone(dad))!;
    expect(father.name).toBe('Mr Tunde Bakare');
    expect(father.children.map((c) => [c.admission_number, c.relationship, c.source])).toEqual([
      [first, 'father', 'student_form'],
      [second, 'father', 'student_form'],
    ]);
    const mother = (await parentByPhone(mum))!;
    expect(mother.children.map((c) => c.admission_number)).toEqual([first]);
    expect(mother.children[0]!.relationship).toBe('mother');
  });

  it('a phone given under a name that disagrees is a conflict for the admin, never merged; resolving links or dismisses it', async () => {
    const phone = freshPhone();
    const a = await createStudent({ fathers_name: 'Chinedu Eze', fathers_phone: phone });
    const b = await createStudent({ first_name: 'Obinna', fathers_name: 'Musa Bello', fathers_phone: phone });
    const c = await createStudent({ first_name: 'Zainab', fathers_name: 'Mr Bello', fathers_phone: phone });
    const parent = (await parentByPhone(phone))!;
    expect(parent.children.map((x) => x.admission_number)).toEqual([a]);
    const conflicts = (await get('/api/parents/conflicts/')).json<{ results: ParentConflict[] }>().results.find((x) => x.phone === phone)!;
    expect(conflicts.parent).toEqual({ id: parent.id, name: 'Chinedu Eze' });
    expect(conflicts.students.map((s) => [s.admission_number, s.name_given])).toEqual([
      [b, 'Musa Bello'],
      [c, 'Mr Bello'],
    ]);
    // Settle b: not this parent (kept unlinked even when the form is saved again); c: this parent.
    expect((await post('/api/parents/conflicts/resolve/', { phone, admission_number: b, action: 'dismiss' })).statusCode).toBe(200);
    expect((await post('/api/parents/conflicts/resolve/', { phone, admission_number: c, action: 'link' })).statusCode).toBe(200);
    const again = await putStudent(b, {
      first_name: 'Obinna',
      fathers_name: 'Musa Bello',
      fathers_phone: phone,
      home_address: '3 Broad Street',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await parentByPhone(phone))!.children.map((x) => x.admission_number)).toEqual([a, c]);
    expect(
      (await get('/api/parents/conflicts/')).json<{ results: ParentConflict[] }>().results.find((x) => x.phone === phone),
    ).toBeUndefined();
    // Nothing open to settle any more.
    expect((await post('/api/parents/conflicts/resolve/', { phone, admission_number: b, action: 'link' })).statusCode).toBe(404);
  });

  it('changing the phone on the form moves the link; a link the admin removed stays removed', async () => {
    const old = freshPhone();
    const next = freshPhone();
    const s = await createStudent({ fathers_name: 'Ifeanyi Nwosu', fathers_phone: old });
    const put = await putStudent(s, { fathers_name: 'Ifeanyi Nwosu', fathers_phone: next });
    expect(put.statusCode, put.body).toBe(200);
    expect((await parentByPhone(old))!.children).toEqual([]);
    const now = (await parentByPhone(next))!;
    expect(now.children.map((c) => c.admission_number)).toEqual([s]);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/parents/${now.id}/links/${s}/`, headers: admin.auth });
    expect(del.statusCode).toBe(204);
    expect((await putStudent(s, { fathers_name: 'Ifeanyi Nwosu', fathers_phone: next, home_address: '9 Marina' })).statusCode).toBe(200);
    expect((await parentByPhone(next))!.children).toEqual([]);
    // The admin may link it again by hand.
    expect((await post(`/api/parents/${now.id}/links/`, { admission_number: s, relationship: 'guardian' })).statusCode).toBe(201);
    expect((await parentByPhone(next))!.children.map((c) => c.relationship)).toEqual(['guardian']);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/parents/${now.id}/links/NOPE-1/`, headers: admin.auth })).statusCode).toBe(
      404,
    );
  });

  it('a CSV import links every pupil in its transaction: one statement set, siblings share a parent', async () => {
    const phone = freshPhone();
    const local = `0${phone.slice(4)}`;
    const csv = studentsCsv([
      {
        first_name: 'Ada',
        last_name: 'Uche',
        date_of_birth: '2013-01-02',
        student_class: 'JSS 1A',
        fathers_name: 'Paul Uche',
        fathers_phone: local,
        home_address: '1 Road',
      },
      {
        first_name: 'Ebuka',
        last_name: 'Uche',
        date_of_birth: '2014-01-02',
        student_class: 'JSS 1B',
        fathers_name: 'Uche Paul',
        fathers_phone: phone,
        home_address: '1 Road',
      },
    ]);
    const res = await post('/api/students/import/', { csv });
    expect(res.statusCode, res.body).toBe(201);
    const parent = (await parentByPhone(phone))!;
    expect(parent.children.map((c) => [c.first_name, c.source])).toEqual([
      ['Ada', 'import'],
      ['Ebuka', 'import'],
    ]);
  });

  it('the admin adds a parent; bad phones, duplicates and hostile names are refused with field messages', async () => {
    const phone = freshPhone();
    const ok = await post('/api/parents/', {
      name: 'Ngozi Adeyemi',
      phone: `+234 (0) ${phone.slice(4, 7)}.${phone.slice(7)}`,
      email: 'Ngozi@Example.com',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ phone, email: 'ngozi@example.com', children: [] });
    expect((await post('/api/parents/', { name: 'Someone', phone })).json()).toEqual({ phone: [PARENT_MESSAGES.phoneTaken] });
    for (const bad of ['12345', '+44 7700 900123', '0803 123 45678', '0803-ABC-4567', '٠٨٠٣١٢٣٤٥٦٧']) {
      const res = await post('/api/parents/', { name: 'X Y', phone: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toEqual({ phone: [PARENT_MESSAGES.invalidPhone] });
    }
    const hostile = await post('/api/parents/', { name: 'Evil\u202Egnp.exe', phone: freshPhone() });
    expect(hostile.statusCode).toBe(400);
    expect(Object.keys(hostile.json())).toEqual(['name']);
    expect((await post('/api/parents/', { name: 'A'.repeat(151), phone: freshPhone() })).json()).toEqual({
      name: [PARENT_MESSAGES.nameTooLong],
    });
    expect((await post('/api/parents/', { name: '\u200B\u200B', phone: freshPhone() })).statusCode).toBe(400);
    expect((await post('/api/parents/', { name: 'Nul\u0000Byte', phone: freshPhone() })).statusCode).toBe(400);
  });

  it('invitation: a one-time password shown once, signed in by phone in any spelling, changed at first sign-in; /api/me/', async () => {
    const fam = await family(ctx, admin, { name: 'Halima Sani', children: [{ firstName: 'Aisha' }, { firstName: 'Umar', arm: 'JSS 2A' }] });
    // Not invited yet: no password works.
    expect((await parentLogin(ctx, fam.phone, 'anything-at-all')).statusCode).toBe(401);
    const once = await inviteAgain(ctx, admin, fam.phone, 'JSS 2A');
    const spelled = `\u200B０${fam.phone.slice(4, 7)} ${fam.phone.slice(7, 10)}-${fam.phone.slice(10)}`;
    const res = await parentLogin(ctx, spelled, once);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ status: string; data: { access: string; must_change_password: boolean; phone: string; name: string } }>();
    expect(body.status).toBe('success');
    expect(body.data).toMatchObject({ must_change_password: true, phone: fam.phone, name: 'Halima Sani' });
    expect(res.cookies.some((c) => c.name === 'portal_device')).toBe(true);
    const auth = { authorization: `Bearer ${body.data.access}` };
    // Until the password is changed, only the allowed routes answer.
    const children = await ctx.app.inject({ method: 'GET', url: '/api/parent/children/', headers: auth });
    expect(children.statusCode).toBe(403);
    const me = await fetchMe(ctx, auth);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      role: 'parent',
      first_name: 'Halima',
      last_name: 'Sani',
      must_change_password: true,
      parent: { name: 'Halima Sani', phone: fam.phone, email: null },
    });
    expect(me.json<{ children: { admission_number: string }[] }>().children.map((c) => c.admission_number)).toEqual(
      fam.children.map((c) => c.admissionNumber),
    );
    // The slip's password works once it is changed no more; the parent is listed as invited and signed in.
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/password/change/',
      headers: auth,
      payload: { old_password: once, new_password: TEST_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await parentLogin(ctx, fam.phone, once)).statusCode).toBe(401);
    expect((await parentLogin(ctx, fam.phone, TEST_PASSWORD)).json()).toMatchObject({ data: { must_change_password: false } });
    const listed = (await get(`/api/parents/${fam.parentId}/`)).json<ParentDetail>();
    expect(listed.invited_at).not.toBeNull();
    expect(listed.last_sign_in_at).not.toBeNull();
    // A parent signs in only at the parent's door; the student door refuses them.
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/student/login/', payload: { email: fam.phone, password: TEST_PASSWORD } }))
        .statusCode,
    ).toBe(400);
  });

  it('invitations: only those not invited yet unless again; the slips PDF; a parent_invited event per parent', async () => {
    const fam = await family(ctx, admin, { children: [{ firstName: 'Tobi', arm: 'SSS 1A' }] });
    const first = await post('/api/parents/invitations/', { arm: 'SSS 1A' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ invited: 1 });
    expect(first.json<{ slips: { phone: string; password: string; children: string[] }[] }>().slips[0]).toMatchObject({
      phone: fam.phone,
      children: ['Tobi Okafor (SSS 1A)'],
    });
    expect((await post('/api/parents/invitations/', { arm: 'SSS 1A' })).json()).toMatchObject({ invited: 0, slips: [] });
    const pdf = await post('/api/parents/invitations/pdf/', { arm: 'SSS 1A', again: true });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const events = await ctx.handle.db
      .selectFrom('notice_events')
      .select(['kind', 'payload'])
      .where('kind', '=', 'parent_invited')
      .execute();
    const mine = events.filter((e) => JSON.parse(e.payload).phone === fam.phone);
    expect(mine).toHaveLength(2);
    // The SMS/email carries the one-time password of its invitation (decision 035): the first
    // invitation's event holds the slip's password.
    const firstPassword = first.json<{ slips: { password: string }[] }>().slips[0]!.password;
    expect(mine.map((e) => JSON.parse(e.payload).password)).toContain(firstPassword);
    expect((await post('/api/parents/invitations/', { arm: 'JSS 9Z' })).statusCode).toBe(400);
  });

  it('sign-in limits: wrong passwords block the account from that address, with the login envelope', async () => {
    const fam = await family(ctx, admin, { children: [{ firstName: 'Dayo' }] });
    await inviteAgain(ctx, admin, fam.phone);
    const from = { remoteAddress: '10.9.8.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await parentLogin(ctx, fam.phone, `wrong-${i}`, from)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const blocked = await parentLogin(ctx, fam.phone, 'wrong', from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ status: 'error', message: AUTH_MESSAGES.tooManyAttempts });
    const blocks = (await get('/api/sign-in-blocks/')).json<{ email: string }[]>();
    expect(blocks.some((b) => b.email === fam.phone)).toBe(true);
    // Unknown phones and junk are refused the same way (no account enumeration).
    expect((await parentLogin(ctx, freshPhone(), 'whatever')).json()).toMatchObject({ message: AUTH_MESSAGES.invalidCredentials });
    expect((await parentLogin(ctx, 'not a phone', 'whatever')).statusCode).toBe(400);
  });

  it('backfill links the students registered before parents existed, listing disagreements as conflicts', async () => {
    // Registered straight into the tables (as before 0032): one father's phone under two surnames.
    for (const lastName of ['Adebayo', 'Okoro']) {
      await createStudentRow(ctx.handle.db, {
        email: `pre-${lastName}@test.school`,
        password: TEST_PASSWORD,
        firstName: 'Pre',
        lastName,
        arm: 'JSS 3A',
      });
    }
    const res = await post('/api/parents/backfill/', {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ students: number; parents: number; conflicts: number }>();
    expect(body.students).toBeGreaterThan(0);
    // One phone, two names: a conflict, not a merge.
    const conflicts = (await get('/api/parents/conflicts/')).json<{ results: ParentConflict[] }>().results;
    expect(conflicts.find((c) => c.phone === '+2348039876543')?.students.length).toBeGreaterThan(0);
    // Again: nothing new.
    const again = (await post('/api/parents/backfill/', {})).json<{ parents: number; conflicts: number }>();
    expect(again.parents).toBe(body.parents);
    expect(again.conflicts).toBe(body.conflicts);
  });

  it('a parent reaches only the parent routes and their children; other roles never reach /api/parent/children/', async () => {
    const fam = await family(ctx, admin, { children: [{ firstName: 'Ola' }] });
    const parent = await signInParent(ctx, admin, fam.phone);
    expect((await get('/api/parents/', parent)).statusCode).toBe(403);
    expect((await get(`/api/students/${fam.children[0]!.admissionNumber}/`, parent)).statusCode).toBe(403);
    expect((await get('/api/parent/children/', admin)).statusCode).toBe(403);
    const home = await get('/api/parent/children/', parent);
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json()).toMatchObject({
      children: [{ admission_number: fam.children[0]!.admissionNumber, first_name: 'Ola', relationship: 'father' }],
    });
  });
});
