import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PEOPLE_MESSAGES, TEXT_MESSAGES } from '@portal/domain';
import { describeEachDatabase, rowWhere, signInStudent, type SignedIn, type TestContext, withSchool } from '../helpers';
import { findNul } from '../../src/http/nul-guard';

/**
 * A NUL byte in any string used to reach PostgreSQL ("invalid byte sequence for
 * encoding UTF8: 0x00") and answer 500; SQLite stored it. Control characters, bidi overrides, lone
 * surrogates and names made only of invisible characters are now refused by the shared text schema
 * (packages/domain/src/text.ts), and a global guard refuses NUL anywhere in a URL or JSON body.
 */

const NUL = '\u0000';
const RLO = '\u202E';
const ZWSP = '\u200B';

async function countRows(ctx: TestContext): Promise<Record<string, number>> {
  const res = await sql<Record<string, number>>`select
    (select count(*) from students) as students,
    (select count(*) from payments) as payments,
    (select count(*) from audit_log) as audit_log,
    (select count(*) from settings) as settings`.execute(ctx.handle.db);
  return Object.fromEntries(Object.entries(res.rows[0]!).map(([k, v]) => [k, Number(v)]));
}

describeEachDatabase('control characters and NUL bytes', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let student: SignedIn & { admissionNumber: string };

  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin } = s);
    student = await signInStudent(ctx, { firstName: 'Ada', lastName: 'Eze', arm: 'JSS 1A' });
  });

  const update = (body: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/students/${student.admissionNumber}/`,
      headers: admin.auth,
      payload: { first_name: 'Ada', last_name: 'Eze', email: student.email, ...body },
    });

  describe('each endpoint of the report answers 400, not 500, to a NUL byte', () => {
    const cases: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['student update (JSON body)', () => update({ first_name: `Ada${NUL}` })],
      ['student update (address)', () => update({ home_address: `5 Allen Avenue${NUL}` })],
      [
        'student search (query string)',
        () => ctx.app.inject({ method: 'GET', url: '/api/students/search/?q=Ada%00', headers: admin.auth }),
      ],
      [
        'student list (query string)',
        () => ctx.app.inject({ method: 'GET', url: '/api/students/list/', query: { q: `x${NUL}` }, headers: admin.auth }),
      ],
      [
        'student by admission number (path)',
        () => ctx.app.inject({ method: 'GET', url: `/api/students/${student.admissionNumber}%00/`, headers: admin.auth }),
      ],
      [
        'payment history (query string)',
        () =>
          ctx.app.inject({
            method: 'GET',
            url: `/api/payments/history/?admission_number=${student.admissionNumber}%00`,
            headers: admin.auth,
          }),
      ],
      [
        'payment verify (JSON body)',
        () => ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: student.auth, payload: { reference: `PAY${NUL}` } }),
      ],
      [
        'payment initiate (JSON body)',
        () =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/payments/initiate/',
            headers: student.auth,
            payload: {
              admission_number: student.admissionNumber,
              full_name: `Ada${NUL}Eze`,
              current_class: 'JSS 1A',
              current_session: '2025/2026',
              email: 'parent@example.com',
              amount: 1000,
            },
          }),
      ],
      ['payment receipt (path)', () => ctx.app.inject({ method: 'GET', url: '/api/payments/receipt/PAY%00/', headers: student.auth })],
      [
        'payment receipt PDF (path)',
        () => ctx.app.inject({ method: 'GET', url: '/api/payments/receipt/PAY%00/pdf/', headers: student.auth }),
      ],
      [
        'class payment report (query string)',
        () =>
          ctx.app.inject({
            method: 'GET',
            url: '/api/payments/report/',
            query: { class: 'JSS 1A', session: `2025${NUL}` },
            headers: admin.auth,
          }),
      ],
    ];
    it.each(cases)('%s', async (_name, send) => {
      const before = await countRows(ctx);
      const res = await send();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).not.toMatch(/0x00|invalid byte sequence|SQLITE_/);
      expect(await countRows(ctx)).toEqual(before);
    });
  });

  describe('the shared text schema', () => {
    it('refuses control characters in a free-text field with a message naming the field', async () => {
      const res = await update({ first_name: `Ada${NUL}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ first_name: [TEXT_MESSAGES.notAllowed('First name')] });
      for (const c of ['\u0007', '\u001b[31m', '\u007f', '\u0085', '\u009b']) {
        const r = await update({ last_name: `Eze${c}` });
        expect(r.statusCode, JSON.stringify(c)).toBe(400);
        expect(r.json()).toEqual({ last_name: [TEXT_MESSAGES.notAllowed('Last name')] });
      }
    });

    it('refuses bidi overrides and lone surrogates', async () => {
      const rlo = await update({ first_name: `Ada${RLO}gnp.exe` });
      expect(rlo.json()).toEqual({ first_name: [TEXT_MESSAGES.notAllowed('First name')] });
      for (const c of ['\u2066', '\u2069', '\u202A']) expect((await update({ last_name: `E${c}ze` })).statusCode).toBe(400);
      const surrogate = await update({ fathers_name: `Mr \uD800 Eze` });
      expect(surrogate.json()).toEqual({ fathers_name: [TEXT_MESSAGES.notAllowed("Father's name")] });
    });

    it('treats a name made only of zero-width or invisible characters as empty', async () => {
      const res = await update({ first_name: `${ZWSP}\u200C\u2060\uFEFF` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ first_name: [PEOPLE_MESSAGES.firstNameRequired] });
      const optional = await update({ mothers_name: '\u200D\u00AD' });
      expect(optional.json()).toEqual({ mothers_name: [TEXT_MESSAGES.invisibleOnly("Mother's name")] });
    });

    it('keeps what legitimate text needs: accents, Yoruba tone marks, joiners inside words, newlines in an address', async () => {
      const res = await update({
        first_name: 'Adébáyọ̀',
        last_name: 'Ọlátúnjí',
        mothers_name: 'Mrs N\u200Cgozi',
        home_address: '5 Allen Avenue\nIkeja\r\nLagos',
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await rowWhere(
        ctx,
        'students',
        ['first_name', 'last_name', 'home_address'],
        ['admission_number', student.admissionNumber],
      );
      expect(row).toEqual({ first_name: 'Adébáyọ̀', last_name: 'Ọlátúnjí', home_address: '5 Allen Avenue\nIkeja\r\nLagos' });
      // A newline where a single line is expected is refused.
      expect((await update({ first_name: 'Ada\nEze' })).json()).toEqual({ first_name: [TEXT_MESSAGES.notAllowed('First name')] });
    });

    it('covers school settings too', async () => {
      const current = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<Record<string, unknown>>();
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/settings/',
        headers: admin.auth,
        payload: { ...current, school_name: `Role Models${RLO}`, motto: `x${NUL}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        school_name: [TEXT_MESSAGES.notAllowed('School name')],
        motto: [TEXT_MESSAGES.notAllowed('Motto')],
      });
    });
  });

  describe('the global guard', () => {
    it('refuses NUL anywhere in a URL, on every route, with 400', async () => {
      for (const url of ['/api/health?x=%00', '/api/settings/?a=%00', '/api/nowhere%00/', '/api/me/?q=a%00b']) {
        const res = await ctx.app.inject({ method: 'GET', url, headers: admin.auth });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ detail: TEXT_MESSAGES.nulInRequest });
      }
    });

    it('refuses NUL in any string of a body that reaches a handler without a field schema, naming where it is', async () => {
      // The sign-in password is deliberately free (it is only hashed): the guard still stops a NUL.
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/student/login/',
        payload: { email: student.email, password: `Correct${NUL}Horse` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ password: [TEXT_MESSAGES.nulInRequest] });
      expect(findNul({ a: 'ok', b: { c: ['x', `y${NUL}`] } }, [])).toEqual(['b', 'c', '1']);
      expect(findNul({ [`k${NUL}`]: 1 }, [])).toEqual([]);
      expect(findNul(Buffer.from([0, 0]), [])).toBeNull();
      expect(findNul({ a: ['fine', 1, null, true] }, [])).toBeNull();
    });

    it('still authenticates first: an anonymous caller gets 401, not a validation answer', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', payload: { reference: `PAY${NUL}` } });
      expect(res.statusCode).toBe(401);
    });
  });
});
