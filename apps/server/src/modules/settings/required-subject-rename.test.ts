import { expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS, REPORT_MESSAGES, type ReportCard, type ReportSettings } from '@portal/domain';
import { describeEachDatabase, servicesOver, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';

/**
 * The promotion rule names its required subjects as the scores do. A subject renamed in the catalogue
 * renames its scores (all sessions); the rule follows, today's and every session's kept settings,
 * or the renamed subject silently stops being required and a student who failed it is promoted.
 */
describeEachDatabase('a required subject renamed in the catalogue', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number }, today: number, last: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId: today, previousSessionId: last } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );
  const ok = async (method: 'PUT' | 'PATCH', url: string, body: object) => {
    const res = await inject(method, url, admin.auth, body);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('stays required: today’s rule and the sessions’ kept rules follow the new name, and the card’s decision is unchanged', async () => {
    const { sessionId, mates } = await rankedClass();
    const dayo = mates[2]!; // 65 in every subject: about 63 for the year in Mathematics
    const rule: ReportSettings = {
      ...DEFAULT_REPORT_SETTINGS,
      promotion: { min_average: 60, trial_average: null, pass_mark: 75, required_subjects: ['Mathematics'] },
    };
    await ok('PUT', '/api/report-settings/', rule);
    // Last session keeps the defaults' rule (English Language and Mathematics) once it is left again.
    await ok('PATCH', `/api/sessions/${last}/`, { is_current: true });
    await ok('PUT', '/api/report-settings/', DEFAULT_REPORT_SETTINGS);
    await ok('PATCH', `/api/sessions/${today}/`, { is_current: true });
    const decision = async () => {
      const res = await inject(
        'GET',
        `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${dayo.admissionNumber}`,
        admin.auth,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ReportCard>().promotion?.decision;
    };
    expect(await decision()).toBe('repeat');

    const maths = await ctx.handle.db.selectFrom('subjects').select('id').where('name', '=', 'Mathematics').executeTakeFirstOrThrow();
    await ok('PATCH', `/api/subjects/${maths.id}/`, { name: 'General Mathematics' });

    // Without the rename of the rule, Dayo is promoted: the rule names a subject no score has.
    expect(await decision()).toBe('repeat');
    const now = (await inject('GET', '/api/report-settings/', admin.auth)).json<ReportSettings>();
    expect(now.promotion.required_subjects).toEqual(['General Mathematics']);
    const settings = servicesOver(ctx).settings;
    expect((await settings.reportSettings(last)).promotion.required_subjects).toEqual(['English Language', 'General Mathematics']);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['entity', 'entity_id'])
      .where('entity', '=', 'session_report_settings')
      .execute();
    expect(audit).toEqual([{ entity: 'session_report_settings', entity_id: String(last) }]);

    // A rename of a subject the rule does not name changes no settings.
    const before = await ctx.handle.db.selectFrom('audit_log').select('id').where('entity', '=', 'settings').execute();
    const french = await ctx.handle.db.selectFrom('subjects').select('id').where('name', '=', 'French').executeTakeFirstOrThrow();
    await ok('PATCH', `/api/subjects/${french.id}/`, { name: 'French Language' });
    expect(await ctx.handle.db.selectFrom('audit_log').select('id').where('entity', '=', 'settings').execute()).toEqual(before);
    await ok('PATCH', `/api/subjects/${maths.id}/`, { name: 'Mathematics' });
    await ok('PATCH', `/api/subjects/${french.id}/`, { name: 'French' });
    await ok('PUT', '/api/report-settings/', DEFAULT_REPORT_SETTINGS);
  });

  it('refuses a required subject the catalogue does not have (a look-alike, a typo): the rule would hold no one to it', async () => {
    const before = (await inject('GET', '/api/report-settings/', admin.auth)).json<ReportSettings>();
    for (const name of ['Mathematics\u200b', 'Mathematcs', 'mathematics']) {
      const res = await inject('PUT', '/api/report-settings/', admin.auth, {
        ...DEFAULT_REPORT_SETTINGS,
        promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, required_subjects: ['English Language', name] },
      });
      expect([res.statusCode, res.json()], name).toEqual([
        400,
        { 'promotion.required_subjects': [REPORT_MESSAGES.requiredSubjectUnknown(name)] },
      ]);
    }
    expect((await inject('GET', '/api/report-settings/', admin.auth)).json()).toEqual(before);
    // A retired subject is still the catalogue's: a rule may keep it for the students who took it.
    const french = await ctx.handle.db.selectFrom('subjects').select('id').where('name', '=', 'French').executeTakeFirstOrThrow();
    await ok('PATCH', `/api/subjects/${french.id}/`, { retired: true });
    await ok('PUT', '/api/report-settings/', {
      ...DEFAULT_REPORT_SETTINGS,
      promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, required_subjects: ['French'] },
    });
    await ok('PATCH', `/api/subjects/${french.id}/`, { retired: false });
    await ok('PUT', '/api/report-settings/', DEFAULT_REPORT_SETTINGS);
  });
});
