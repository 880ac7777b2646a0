import { describe, expect, it } from 'vitest';
import { TEACHING_MESSAGES as M, curriculumOfferings, type ClassLevel, type LevelOffering, type TeachingStructure } from '@portal/domain';
import { prepareDatabase } from '../../db/startup';
import { testConfig } from '../../config';
import * as upgrade from '../../../test/migrations';
import {
  auditRow,
  describeEachDatabase,
  login,
  studentBody,
  withSchool,
  withTestContext,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

/**
 * A new install starts with the national curricula (JSS per the UBE basic education
 * curriculum; SSS core, science, arts and commercial streams) rather than fourteen subjects
 * compulsory at all six levels; an existing school keeps its own. And the offerings screen sets
 * one subject's offering for several levels in one all-or-nothing call.
 */

const quiet = { info: () => undefined, warn: () => undefined };
const ADMIN = { adminEmail: 'head@new.school', adminPassword: 'Fresh-Install-Pass-7' };

describeEachDatabase('a new install: the national curricula as default subjects', (dialect) => {
  let ctx: TestContext, admin: { authorization: string };
  withTestContext(
    dialect,
    async (c) => {
      ctx = c;
      // What `main` does on an empty database: migrations, the new install's seed, the first admin.
      await prepareDatabase(c.handle, c.config, quiet);
      admin = { authorization: `Bearer ${(await login(c.app, 'admin', ADMIN.adminEmail, ADMIN.adminPassword)).json().data.access}` };
    },
    ADMIN,
  );
  const get = async <T>(url: string) => (await ctx.app.inject({ method: 'GET', url, headers: admin })).json<T>();
  const names = (s: TeachingStructure, level: string, compulsory?: boolean) =>
    s.offerings
      .find((o) => o.class_level === level)!
      .subjects.filter((x) => compulsory === undefined || x.compulsory === compulsory)
      .map((x) => s.subjects.find((c) => c.id === x.subject_id)!.name);

  it('seeds the JSS and SSS curricula and the three senior streams', async () => {
    const s = await get<TeachingStructure>('/api/teaching/structure/');
    const catalogue = s.subjects.map((x) => x.name);
    for (const n of ['Islamic Religious Studies', 'Igbo', 'Hausa', 'Data Processing', 'Marketing', 'Government', 'Literature in English'])
      expect(catalogue).toContain(n);
    // Each level offers what the domain's curricula say, in their order.
    const planned = (level: ClassLevel, compulsory: boolean) =>
      curriculumOfferings(level)
        .filter((o) => o.compulsory === compulsory)
        .map((o) => o.name);
    expect(names(s, 'JSS 1', true)).toEqual(planned('JSS 1', true));
    expect(names(s, 'JSS 1', true)).toHaveLength(13);
    expect(names(s, 'JSS 3', false)).toEqual(['Yoruba', 'Igbo', 'Hausa', 'Christian Religious Studies', 'Islamic Religious Studies']);
    expect(names(s, 'SSS 1', true)).toEqual(planned('SSS 1', true));
    expect(names(s, 'SSS 1', true)).toEqual(['English Language', 'Mathematics', 'Civic Education', 'Data Processing', 'Biology']);
    for (const level of ['SSS 1', 'SSS 2', 'SSS 3']) {
      expect(names(s, level)).not.toContain('Basic Science');
      expect(names(s, level)).not.toContain('Basic Technology');
    }
    const stream = (n: string) => s.streams.find((x) => x.name === n)!.subject_ids.map((id) => s.subjects.find((c) => c.id === id)!.name);
    expect(stream('Science')).toEqual(['Agricultural Science', 'Physics', 'Chemistry', 'Further Mathematics']);
    expect(stream('Arts')).toEqual(['Literature in English', 'Government', 'History']);
    expect(stream('Commercial')).toEqual(['Economics', 'Commerce', 'Financial Accounting', 'Marketing']);
  });

  it('an SSS 1 student gets the senior core and their stream, not Basic Science; a JSS 1 student gets Basic Science', async () => {
    const senior = (
      await ctx.app.inject({ method: 'POST', url: '/api/students/', headers: admin, payload: studentBody({ student_class: 'SSS 1A' }) })
    ).json();
    const url = `/api/teaching/students/${senior.admission_number}/subjects/`;
    const before = await get<{ subjects: string[] }>(url);
    expect(before.subjects).toEqual(['English Language', 'Mathematics', 'Civic Education', 'Data Processing', 'Biology']);
    const s = await get<TeachingStructure>('/api/teaching/structure/');
    const science = s.streams.find((x) => x.name === 'Science')!.id;
    const irs = s.subjects.find((x) => x.name === 'Islamic Religious Studies')!.id;
    const put = await ctx.app.inject({ method: 'PUT', url, headers: admin, payload: { stream_id: science, add: [irs], drop: [] } });
    expect(put.statusCode).toBe(200);
    expect(put.json().subjects).not.toContain('Basic Science');
    expect(put.json().subjects).toEqual(
      expect.arrayContaining(['Physics', 'Chemistry', 'Further Mathematics', 'Islamic Religious Studies']),
    );

    const junior = (
      await ctx.app.inject({ method: 'POST', url: '/api/students/', headers: admin, payload: studentBody({ student_class: 'JSS 1A' }) })
    ).json();
    const j = await get<{ subjects: string[] }>(`/api/teaching/students/${junior.admission_number}/subjects/`);
    expect(j.subjects).toContain('Basic Science');
    expect(j.subjects).not.toContain('Physics');
    expect(j.subjects).toHaveLength(13);
  });

  it('a restart changes nothing (the school now has accounts)', async () => {
    const before = await upgrade.tableRows(ctx.handle, ['subjects', 'level_subjects', 'streams', 'stream_subjects']);
    await prepareDatabase(ctx.handle, ctx.config, quiet);
    expect(await upgrade.tableRows(ctx.handle, ['subjects', 'level_subjects', 'streams', 'stream_subjects'])).toEqual(before);
  });
});

describe('an existing school keeps its subjects (release-0019 database)', () => {
  const cleanups = upgrade.cleanupsAfterEach();
  it('upgrading and starting keeps every subject, offering and stream row', async () => {
    const handle = upgrade.databaseFromFixture('release-0019', cleanups);
    const before = await upgrade.tableRows(handle, upgrade.RELEASE_0019_TABLES);
    await prepareDatabase(handle, testConfig(ADMIN), quiet);
    const after = await upgrade.tableRowsAsBefore(handle, before);
    for (const t of ['subjects', 'level_subjects', 'streams', 'stream_subjects'] as const) expect(after[t]).toEqual(before[t]);
    expect(upgrade.withoutRecomputedKeys(after)).toEqual(upgrade.withoutRecomputedKeys(before));
  });
});

describeEachDatabase("one subject's offering for several levels in one call", (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));
  const structure = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/teaching/structure/', headers: admin.auth })).json<TeachingStructure>();
  const offeringOf = (offerings: LevelOffering[], subjectId: number) =>
    Object.fromEntries(
      offerings.map((o) => {
        const x = o.subjects.find((s) => s.subject_id === subjectId);
        return [o.class_level, x ? (x.compulsory ? 'compulsory' : 'offered') : 'none'];
      }),
    );
  const put = (auth: SignedIn, id: number, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'PUT', url: `/api/teaching/subjects/${id}/offerings/`, headers: auth.auth, payload });

  it('sets Basic Science to not offered in SSS 1–3 in one call, audited once; staff may not', async () => {
    const s = await structure();
    const bsc = s.subjects.find((x) => x.name === 'Basic Science')!;
    // The earlier release's defaults: compulsory at all six levels.
    expect(Object.values(offeringOf(s.offerings, bsc.id))).toEqual(Array(6).fill('compulsory'));
    expect((await put(staff, bsc.id, { offering: 'none', levels: ['SSS 1'] })).statusCode).toBe(403);

    const res = await put(admin, bsc.id, { offering: 'none', levels: ['SSS 1', 'SSS 2', 'SSS 3'] });
    expect(res.statusCode).toBe(200);
    expect(offeringOf(res.json(), bsc.id)).toEqual({
      'JSS 1': 'compulsory',
      'JSS 2': 'compulsory',
      'JSS 3': 'compulsory',
      'SSS 1': 'none',
      'SSS 2': 'none',
      'SSS 3': 'none',
    });
    expect(offeringOf((await structure()).offerings, bsc.id)).toEqual(offeringOf(res.json(), bsc.id));
    const audit = await auditRow(ctx, 'level_subjects', 'Basic Science', 'update');
    expect(audit).toBeDefined();

    // Then elective in JSS 2 and 3: the other levels untouched.
    const elective = await put(admin, bsc.id, { offering: 'elective', levels: ['JSS 2', 'JSS 3'] });
    expect(offeringOf(elective.json(), bsc.id)).toMatchObject({
      'JSS 1': 'compulsory',
      'JSS 2': 'offered',
      'JSS 3': 'offered',
      'SSS 1': 'none',
    });
  });

  it('is all or nothing: one level refused and no level changes', async () => {
    const s = await structure();
    const fre = s.subjects.find((x) => x.name === 'French')!;
    const before = offeringOf(s.offerings, fre.id);
    const res = await put(admin, fre.id, { offering: 'stream', levels: ['SSS 1', 'JSS 3', 'SSS 2'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().levels).toEqual([M.streamOfferingSenior('French', 'JSS 3')]);
    expect(offeringOf((await structure()).offerings, fre.id)).toEqual(before);

    // A junior-only subject cannot be offered in SSS: refused whole.
    const jss = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/subjects/',
        headers: admin.auth,
        payload: { name: 'Basic Woodwork', code: 'BWW', section: 'JSS' },
      })
    ).json();
    const mixed = await put(admin, jss.id, { offering: 'compulsory', levels: ['JSS 1', 'SSS 1'] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().levels).toEqual([M.subjectNotForLevel('Basic Woodwork', 'SSS 1')]);
    expect(offeringOf((await structure()).offerings, jss.id)).toEqual(Object.fromEntries(Object.keys(before).map((l) => [l, 'none'])));

    // Stream offering in the senior levels is stored as offered, not compulsory.
    const ok = await put(admin, fre.id, { offering: 'stream', levels: ['SSS 1', 'SSS 2'] });
    expect(ok.statusCode).toBe(200);
    expect(offeringOf(ok.json(), fre.id)).toMatchObject({ 'SSS 1': 'offered', 'SSS 2': 'offered', 'SSS 3': before['SSS 3'] });

    expect((await put(admin, fre.id, { offering: 'sometimes', levels: ['SSS 1'] })).json().offering).toEqual([M.offeringInvalid]);
    expect((await put(admin, fre.id, { offering: 'none', levels: [] })).json().levels).toEqual([M.levelsRequired]);
    expect((await put(admin, 999999, { offering: 'none', levels: ['SSS 1'] })).statusCode).toBe(404);
  });
});
