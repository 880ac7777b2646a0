import { expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS, REPORT_MESSAGES, type ReportCard, type ReportSettings } from '@portal/domain';
import { describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { greyPng } from '../../../test/grey-png';

const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;

/**
 * Decision 058: the report card settings screen edits the current session's cards. A session that
 * stops being current keeps the settings its cards showed; one that becomes current again gets them
 * back. So editing today's traits, pass mark or signature never changes last year's cards.
 */
describeEachDatabase('report card settings kept per session', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number }, today: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId: today } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );
  const settingsNow = async () => (await inject('GET', '/api/report-settings/', admin.auth)).json<ReportSettings>();
  const save = async (settings: ReportSettings) => {
    const res = await inject('PUT', '/api/report-settings/', admin.auth, settings);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReportSettings>();
  };
  const makeCurrent = async (id: number) => {
    const res = await inject('PATCH', `/api/sessions/${id}/`, admin.auth, { is_current: true });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** What of a card the settings decide: trait names and labels, passed and failed, the sign-off. */
  const shown = async (sessionId: number, admission: string) => {
    const res = await inject('GET', `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${admission}`, admin.auth);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<ReportCard>();
    return {
      traits: c.ratings.domains.flatMap((d) => d.traits.map((t) => t.name)),
      labels: c.ratings.labels,
      passed: [c.subjects_passed, c.subjects_failed],
      sign_off: c.sign_off,
    };
  };

  it('keeps a session’s settings when another becomes current, and gives them back when it is current again', async () => {
    const { sessionId: last, student } = await rankedClass();
    await makeCurrent(last);
    const lastYears = await save({
      ...DEFAULT_REPORT_SETTINGS,
      traits: { affective: [{ id: 'punctuality', name: 'Timekeeping' }], psychomotor: DEFAULT_REPORT_SETTINGS.traits.psychomotor },
      rating_labels: ['Weak', 'Fair', 'Good', 'Very good', 'Superb'],
      promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, pass_mark: 75 },
      signature: png(40, 20),
    });
    const card = await shown(last, student.admissionNumber);
    // Scores 90, 70 and 80 against a pass mark of 75.
    expect(card).toMatchObject({
      traits: ['Timekeeping', ...DEFAULT_REPORT_SETTINGS.traits.psychomotor.map((t) => t.name)],
      passed: [2, 1],
      sign_off: { signature: lastYears.signature },
    });

    // The new session begins: its settings start as the last ones; the new principal changes them.
    await makeCurrent(today);
    expect(await settingsNow()).toEqual(DEFAULT_REPORT_SETTINGS);
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['after'])
      .where('entity', '=', 'settings')
      .where('entity_id', '=', 'report_cards')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ signature: '', promotion: DEFAULT_REPORT_SETTINGS.promotion });
    const thisYears = await save({
      ...DEFAULT_REPORT_SETTINGS,
      traits: { affective: [{ id: 'punctuality', name: 'Keeps time' }], psychomotor: [] },
      promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, pass_mark: 40 },
    });
    // Last year's card is as it was released: without the fix it showed "Keeps time", [3, 0] and no signature.
    expect(await shown(last, student.admissionNumber)).toEqual(card);

    // Back to last year (a late correction): its own settings are today's again, and this year's wait.
    await makeCurrent(last);
    expect(await settingsNow()).toEqual(lastYears);
    expect(await shown(last, student.admissionNumber)).toEqual(card);
    await makeCurrent(today);
    expect(await settingsNow()).toEqual(thisYears);
  });

  it('a session not yet begun reads today’s settings; making the current session current again changes nothing', async () => {
    const { sessionId: ahead, student } = await rankedClass();
    const mine = await save({ ...DEFAULT_REPORT_SETTINGS, promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, pass_mark: 85 } });
    expect((await shown(ahead, student.admissionNumber)).passed).toEqual([1, 2]);
    await makeCurrent(today);
    expect(await settingsNow()).toEqual(mine);
    expect(
      await ctx.handle.db.selectFrom('session_report_settings').select('session_id').where('session_id', '=', today).execute(),
    ).toEqual([]);
    await save(DEFAULT_REPORT_SETTINGS);
  });

  /** A save with If-Match (what the settings screen sends): decision 059. */
  const putIfMatch = (settings: ReportSettings, ifMatch: string) =>
    ctx.app.inject({ method: 'PUT', url: '/api/report-settings/', headers: { ...admin.auth, 'if-match': ifMatch }, payload: settings });
  const tagNow = async () => {
    const res = await inject('GET', '/api/report-settings/', admin.auth);
    expect(res.headers.etag).toMatch(/^"[\w-]{22}"$/);
    return res.headers.etag as string;
  };

  it('refuses a save over settings changed since the form read them: by another admin, or by a session switch', async () => {
    const { sessionId: other } = await rankedClass();
    const opened = await tagNow();
    // Another admin saves first: the form's save is refused and nothing of it is stored.
    const theirs = await save({ ...DEFAULT_REPORT_SETTINGS, rating_labels: ['E', 'D', 'C', 'B', 'A'] });
    let res = await putIfMatch({ ...DEFAULT_REPORT_SETTINGS, require_comments: false }, opened);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ detail: REPORT_MESSAGES.settingsChangedMeanwhile });
    expect(await settingsNow()).toEqual(theirs);

    // Read again, the save goes through, and its answer carries the tag of what it stored.
    res = await putIfMatch({ ...theirs, require_comments: false }, await tagNow());
    expect(res.statusCode, res.body).toBe(200);
    const afterSave = res.headers.etag as string;
    expect(afterSave).toBe(await tagNow());
    // A weak form of the same tag is the same copy; '*' is any.
    expect((await putIfMatch({ ...theirs, require_comments: false }, `W/${afterSave}`)).statusCode).toBe(200);

    // Another session becomes current with the same settings: the form was the other session's.
    await makeCurrent(other);
    expect(await settingsNow()).toEqual({ ...theirs, require_comments: false });
    res = await putIfMatch(theirs, afterSave);
    expect(res.statusCode, res.body).toBe(409);
    await makeCurrent(today);
    expect((await putIfMatch(DEFAULT_REPORT_SETTINGS, '*')).statusCode).toBe(200);
    // A caller that sends no If-Match saves as before.
    await save(DEFAULT_REPORT_SETTINGS);
  });

  it('a save and a switch of the current session at once: the save is the session’s it was read for, or refused', async () => {
    const { sessionId: other } = await rankedClass();
    for (let round = 0; round < 12; round++) {
      const [from, to] = round % 2 ? [other, today] : [today, other];
      const tag = await tagNow();
      const mine = { ...DEFAULT_REPORT_SETTINGS, rating_labels: ['1', '2', '3', '4', `round ${round}`] };
      const [put, patch] = await Promise.all([
        putIfMatch(mine, tag),
        inject('PATCH', `/api/sessions/${to}/`, admin.auth, { is_current: true }),
      ]);
      expect(patch.statusCode, patch.body).toBe(200);
      if (put.statusCode === 409) continue;
      expect(put.statusCode, put.body).toBe(200);
      // Saved before the switch: the session it was read for left with it.
      const kept = await ctx.handle.db
        .selectFrom('session_report_settings')
        .select('value')
        .where('session_id', '=', from)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(kept.value).rating_labels).toEqual(mine.rating_labels);
    }
    await makeCurrent(today);
    await save(DEFAULT_REPORT_SETTINGS);
  });
});
