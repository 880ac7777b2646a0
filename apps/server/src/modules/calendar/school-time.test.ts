import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHOOL_SETTINGS, PEOPLE_MESSAGES as M, addDays } from '@portal/domain';
import { describeEachDatabase, studentBody, studentsCsv, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';

/**
 * "Today" is the school's, in the time zone it set, by the app's clock, whatever the host's `TZ`:
 * each zone at an instant when its date differs from the UTC date (and from Lagos's), on a host
 * set to yet another zone.
 */
const ZONES = [
  { zone: 'Africa/Lagos', host: 'America/Los_Angeles', at: '2025-12-31T23:30:00.000Z', day: '2026-01-01', year: 2026 },
  // 21:00 on 31 December in New York: already 1 January in UTC and in Lagos.
  { zone: 'America/New_York', host: 'Asia/Tokyo', at: '2026-01-01T02:00:00.000Z', day: '2025-12-31', year: 2025 },
  { zone: 'Pacific/Kiritimati', host: 'America/New_York', at: '2025-12-31T19:00:00.000Z', day: '2026-01-01', year: 2026 },
] as const;

describeEachDatabase("the school's time zone", (dialect) => {
  for (const z of ZONES) {
    describe(`${z.zone} on a host in ${z.host}`, () => {
      const now = Date.parse(z.at);
      let ctx: TestContext, admin: SignedIn;
      const hostTz = process.env.TZ;
      beforeAll(() => {
        process.env.TZ = z.host;
      });
      afterAll(() => {
        if (hostTz === undefined) delete process.env.TZ;
        else process.env.TZ = hostTz;
      });
      withSchool(dialect, { now: () => now }, async (s) => {
        ({ ctx, admin } = s);
        const saved = await ctx.app.inject({
          method: 'PUT',
          url: '/api/settings/',
          headers: admin.auth,
          payload: { ...DEFAULT_SCHOOL_SETTINGS, time_zone: z.zone, admission_number_format: 'RMC/{YYYY}/{NNNN}' },
        });
        expect(saved.statusCode, saved.body).toBe(200);
      });

      const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
      const newAccounts = (query = '') => ctx.app.inject({ method: 'GET', url: `/api/people/new-accounts/${query}`, headers: admin.auth });

      it(`numbers a student with the school's year (${z.year}), and lists them among the school day's new sign-ins`, async () => {
        const res = await post('/api/students/', studentBody());
        expect(res.statusCode, res.body).toBe(201);
        const student = res.json<{ admission_number: string; email: string }>();
        expect(student.admission_number).toMatch(new RegExp(`^RMC/${z.year}/\\d{4}$`));

        // The account as if created at the clock's instant (the row's time is the database's).
        await ctx.handle.db.updateTable('users').set({ created_at: z.at }).where('email', '=', student.email).execute();
        const today = await newAccounts();
        expect(today.statusCode, today.body).toBe(200);
        expect(today.json().date).toBe(z.day);
        const ids = (r: typeof today) => r.json<{ accounts: { public_id: string }[] }>().accounts.map((a) => a.public_id);
        expect(ids(today)).toContain(student.admission_number);
        for (const other of [addDays(z.day, -1), addDays(z.day, 1)]) {
          const res = await newAccounts(`?date=${other}`);
          expect(res.json().date).toBe(other);
          expect(ids(res)).not.toContain(student.admission_number);
        }
      });

      it("holds dates of birth and employment to the school's today", async () => {
        const tomorrow = addDays(z.day, 1);
        const future = await post('/api/students/', studentBody({ date_of_birth: tomorrow }));
        expect(future.statusCode).toBe(400);
        expect(future.json()).toEqual({ date_of_birth: [M.dateInFuture] });
        expect((await post('/api/students/', studentBody({ date_of_birth: z.day }))).statusCode).toBe(201);

        const staff = (employment_date: string) => ({
          username: `zone${Date.now()}${Math.random().toString(36).slice(2, 6)}`,
          email: `zone.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@zones.school`,
          first_name: 'Kunle',
          last_name: 'Ade',
          phone_number: '08051234567',
          designation: 'Teacher',
          department: 'Arts',
          profile_data: { employment_date },
        });
        // A CSV row too: the same message on the row's field.
        const csv = studentsCsv(
          [tomorrow, z.day].map((dob, i) => ({
            first_name: 'Csv',
            last_name: `Pupil${i}`,
            date_of_birth: dob,
            student_class: 'JSS 1A',
            fathers_name: 'Mr Pupil',
            home_address: 'Lagos',
          })),
        );
        const preview = await post('/api/students/import/preview/', { csv });
        expect(preview.statusCode, preview.body).toBe(200);
        expect(preview.json()).toMatchObject({ valid: 1, errors: [{ row: 2, field: 'date_of_birth', message: M.dateInFuture }] });

        const late = await post('/api/staff/', staff(tomorrow));
        expect(late.statusCode).toBe(400);
        expect(late.json()).toEqual({ 'profile_data.employment_date': [M.employmentDateInFuture] });
        expect((await post('/api/staff/', staff(z.day))).statusCode).toBe(201);
      });
    });
  }
});
