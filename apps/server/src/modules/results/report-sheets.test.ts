import { describe, expect, it } from 'vitest';
import {
  ASSESSMENT_MESSAGES,
  CARD_CODES,
  DEFAULT_COMMENT_BANK,
  DEFAULT_REPORT_SETTINGS,
  DEFAULT_TRAITS,
  LOGO_STORED_PIXELS,
  REPORT_MESSAGES,
  type CommentSheet,
  type CommentSheetSaved,
  type RatingSheet,
  type RatingSheetSaved,
  type ReportSettings,
  type ReportTerm,
} from '@portal/domain';
import { createResults } from '../../db/factories';
import { nowIso } from '../../db/index';
import { imageSize } from '../../lib/images';
import { CardEntriesRepository } from './card-entries.repository';
import type { SheetStudentRow } from './score-sheet.repository';
import { blankEntry } from './sheet-rows';
import type { ReportSheetsService } from './report-sheets.service';
import {
  addStudent,
  describeEachDatabase,
  servicesOver,
  signInStaff,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { countStatements } from '../../../test/statement-count';
import { greyPng } from '../../../test/grey-png';
import { makeFormTeacher } from '../../../test/teaching-fixtures';

type Staff = SignedIn & { id: number };

/**
 * The report card sheets: settings, term dates, the ratings and comment sheets with their
 * versions, lock and access rules, the comment suggestions and the third-term promotion block. Each
 * test uses an arm of its own.
 */
describeEachDatabase('report card sheets', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: Staff; // Grace Okafor: form teacher of every arm made by `arm()`
  let other: Staff; // a staff member who is no arm's form teacher
  let sessionId: number;
  let seq = 0;

  withSchool(dialect, { sessions: ['2025/2026'] }, async (school) => {
    ({ ctx, admin, sessionId } = school);
    teacher = school.staff;
    other = await signInStaff(ctx, { firstName: 'Tunde', lastName: 'Bello' });
  });

  /** A JSS 2 arm of its own with Grace as its form teacher and `names` as its students (surname order). */
  async function arm(names: string[] = ['Ada Eze', 'Bola Ade']) {
    const a = `R${++seq}`;
    const cls = `JSS 2 ${a}`;
    await ctx.handle.db.insertInto('class_arms').values({ level: 'JSS 2', arm: a, name: cls, created_at: nowIso() }).execute();
    await makeFormTeacher(ctx.handle.db, sessionId, cls, teacher.id);
    const kids = [];
    for (const n of names) {
      const [first, last] = n.split(' ') as [string, string];
      kids.push({ ...(await addStudent(ctx, cls, first, last)), name: n });
    }
    return { cls, kids };
  }

  const query = (cls: string, term = '1st') => `session_id=${sessionId}&term=${term}&student_class=${encodeURIComponent(cls)}`;
  const get = (url: string, who: SignedIn) => ctx.app.inject({ method: 'GET', url, headers: who.auth });
  const send = (method: 'PUT' | 'POST', url: string, who: SignedIn, payload: object) =>
    ctx.app.inject({ method, url, headers: who.auth, payload });
  const ratings = (cls: string, who: SignedIn, rows: object[], term = '1st') =>
    send('PUT', '/api/class-ratings/', who, { session_id: sessionId, term, student_class: cls, rows });
  const comments = (cls: string, who: SignedIn, rows: object[], term = '1st') =>
    send('PUT', '/api/class-comments/', who, { session_id: sessionId, term, student_class: cls, rows });
  /** The arm's rating or comment sheet as `who` sees it; anything but 200 fails the test. */
  const sheetOf = async <T>(which: 'ratings' | 'comments', cls: string, who: SignedIn) => {
    const res = await get(`/api/class-${which}/?${query(cls)}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  /** Fills the arm's empty form (or principal's) comments from the comment bank, as `who`; `over` adds to the body. */
  const suggest = (cls: string, who: SignedIn, over: Record<string, unknown> = {}) =>
    send('POST', '/api/class-comments/suggestions/', who, {
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      kind: 'form',
      ...over,
    });
  const entry = (studentId: number, term = '1st') =>
    ctx.handle.db
      .selectFrom('report_card_entries')
      .selectAll()
      .where('student_id', '=', studentId)
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .executeTakeFirst();
  const setStatus = (cls: string, status: string, term = '1st') =>
    ctx.handle.db
      .insertInto('report_card_status')
      .values({ session_id: sessionId, term, student_class: cls, status, updated_at: nowIso() })
      .onConflict((oc) => oc.columns(['session_id', 'term', 'student_class']).doUpdateSet({ status }))
      .execute();
  const saveSettings = (over: Partial<Record<keyof ReportSettings, unknown>>) =>
    send('PUT', '/api/report-settings/', admin, { ...DEFAULT_REPORT_SETTINGS, ...over });
  const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;

  describe('report settings', () => {
    it('staff read them; the admin saves them: new traits get ids from their names, existing ids stay, audited without image bytes', async () => {
      const read = await get('/api/report-settings/', teacher);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(DEFAULT_REPORT_SETTINGS);

      const affective = [
        { id: 'punctuality', name: 'Timekeeping' }, // renamed: keeps its id
        { name: 'Punctuality' }, // new, its name's id is taken
        { name: 'Team spirit!' },
      ];
      const res = await saveSettings({ traits: { affective, psychomotor: DEFAULT_TRAITS.psychomotor }, signature: png(40, 20) });
      expect(res.statusCode, res.body).toBe(200);
      const saved = res.json<ReportSettings>();
      expect(saved.traits.affective).toEqual([
        { id: 'punctuality', name: 'Timekeeping' },
        { id: 'punctuality-2', name: 'Punctuality' },
        { id: 'team-spirit', name: 'Team spirit!' },
      ]);
      expect((await get('/api/report-settings/', admin)).json()).toEqual(saved);
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'settings')
        .where('entity_id', '=', 'report_cards')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.after!)).toMatchObject({ signature: '[image]', stamp: '', traits: { affective: saved.traits.affective } });
      expect(JSON.parse(audit.before!)).toMatchObject({ signature: '', traits: DEFAULT_TRAITS });
      expect(audit.actor_user_id).toBe(admin.userId);
      await saveSettings({});
    });

    it('signature and stamp are normalised as the logo is; non-images and huge images are refused; an unchanged image is not decoded again', async () => {
      const res = await saveSettings({ signature: png(1000, 400), stamp: png(300, 300) });
      expect(res.statusCode, res.body).toBe(200);
      for (const key of ['signature', 'stamp'] as const) {
        const body = res.json<ReportSettings>()[key];
        const size = imageSize(Buffer.from(body.split(',')[1]!, 'base64'), 'png')!;
        expect(Math.max(size.width, size.height)).toBe(LOGO_STORED_PIXELS);
      }
      expect(imageSize(Buffer.from(res.json<ReportSettings>().signature.split(',')[1]!, 'base64'), 'png')).toEqual({
        width: LOGO_STORED_PIXELS,
        height: Math.round(LOGO_STORED_PIXELS * 0.4),
      });

      const junk = await saveSettings({ signature: 'data:image/png;base64,AAAAAAAA' });
      expect(junk.statusCode).toBe(400);
      expect(junk.json()).toEqual({ signature: [REPORT_MESSAGES.imageInvalid] });
      const svg = await saveSettings({ stamp: 'data:image/svg+xml;base64,PHN2Zz4=' });
      expect(svg.statusCode).toBe(400);
      expect(svg.json()).toEqual({ stamp: [REPORT_MESSAGES.imageInvalid] });
      const huge = await saveSettings({ stamp: png(6000, 6000) });
      expect(huge.statusCode).toBe(400);
      expect(huge.json()).toEqual({ stamp: [REPORT_MESSAGES.imageTooLarge] });

      // An image stored as it is (larger than normalised) and sent back unchanged stays as it is.
      const big = png(600, 300);
      await ctx.handle.db
        .updateTable('settings')
        .set({ value: JSON.stringify({ ...DEFAULT_REPORT_SETTINGS, signature: big }) })
        .where('key', '=', 'report_cards')
        .execute();
      const again = await saveSettings({ signature: big });
      expect(again.statusCode).toBe(200);
      expect(again.json<ReportSettings>().signature).toBe(big);
      await saveSettings({});
    });

    it('the admin only writes them', async () => {
      const res = await send('PUT', '/api/report-settings/', teacher, DEFAULT_REPORT_SETTINGS);
      expect(res.statusCode).toBe(403);
    });
  });

  describe('term dates', () => {
    it('every term of a session, null until set; the admin sets them, audited; bad dates refused', async () => {
      const empty = await get(`/api/report-terms/?session_id=${sessionId}`, teacher);
      expect(empty.statusCode).toBe(200);
      expect(empty.json<ReportTerm[]>().map((t) => [t.term, t.next_term_begins, t.times_opened])).toEqual([
        ['1st', null, null],
        ['2nd', null, null],
        ['3rd', null, null],
      ]);
      const body = { session_id: sessionId, term: '2nd', next_term_begins: '2026-04-27', times_opened: 118 };
      const put = await send('PUT', '/api/report-terms/', admin, body);
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toEqual(body);
      expect((await get(`/api/report-terms/?session_id=${sessionId}`, admin)).json<ReportTerm[]>()[1]).toEqual(body);
      expect((await send('PUT', '/api/report-terms/', admin, { ...body, times_opened: 120 })).statusCode).toBe(200);
      const audits = await ctx.handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'report_term')
        .where('entity_id', '=', `${sessionId}/2nd`)
        .orderBy('id')
        .execute();
      expect(audits.map((a) => [a.action, JSON.parse(a.before ?? 'null'), JSON.parse(a.after!)])).toEqual([
        ['create', null, { next_term_begins: '2026-04-27', times_opened: 118 }],
        ['update', { next_term_begins: '2026-04-27', times_opened: 118 }, { next_term_begins: '2026-04-27', times_opened: 120 }],
      ]);

      const bad = await send('PUT', '/api/report-terms/', admin, { ...body, next_term_begins: '2026-02-30' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ next_term_begins: [REPORT_MESSAGES.dateFormat] });
      expect((await send('PUT', '/api/report-terms/', teacher, body)).statusCode).toBe(403);
      const missing = await get('/api/report-terms/?session_id=999999', admin);
      expect(missing.statusCode).toBe(400);
      await send('PUT', '/api/report-terms/', admin, { ...body, next_term_begins: null, times_opened: null });
    });
  });

  describe('the ratings sheet', () => {
    it('the form teacher loads the arm in register order with versions 0 and what they may edit', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade']);
      const sheet = await sheetOf<RatingSheet>('ratings', cls, teacher);
      expect(sheet).toMatchObject({
        status: 'draft',
        may_edit_form: true,
        may_edit_principal: false,
        form_teacher: 'Grace Okafor',
        traits: DEFAULT_TRAITS,
        rating_labels: DEFAULT_REPORT_SETTINGS.rating_labels,
      });
      expect(sheet.rows).toEqual([
        { admission_number: kids[1]!.admissionNumber, name: 'Bola Ade', ratings: {}, version: 0 },
        { admission_number: kids[0]!.admissionNumber, name: 'Ada Eze', ratings: {}, version: 0 },
      ]);
      expect((await get(`/api/class-ratings/?${query(cls)}`, admin)).json<RatingSheet>()).toMatchObject({
        may_edit_form: true,
        may_edit_principal: true,
      });
    });

    it('a staff member who is not the form teacher is refused (403) reading and writing', async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      for (const res of [
        await get(`/api/class-ratings/?${query(cls)}`, other),
        await get(`/api/class-comments/?${query(cls)}`, other),
        await ratings(cls, other, [{ admission_number: kids[0]!.admissionNumber, ratings: { neatness: 4 }, version: 0 }]),
        await comments(cls, other, [{ admission_number: kids[0]!.admissionNumber, form_comment: 'Hi', version: 0 }]),
        await suggest(cls, other),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: REPORT_MESSAGES.formTeacherOnly(cls) });
      }
      expect(await entry(kids[0]!.id)).toBeUndefined();
    });

    it('saves ratings with versions; null clears; a stale version is 409 and nothing of the request is written', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade']);
      const [ada, bola] = kids as [(typeof kids)[0], (typeof kids)[0]];
      const first = await ratings(cls, teacher, [
        { admission_number: ada.admissionNumber, ratings: { neatness: 4, honesty: 5 }, version: 0 },
        { admission_number: bola.admissionNumber, ratings: { neatness: 3 }, version: 0 },
      ]);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json<RatingSheetSaved>().rows).toEqual([
        { admission_number: ada.admissionNumber, version: 1, ratings: { neatness: 4, honesty: 5 } },
        { admission_number: bola.admissionNumber, version: 1, ratings: { neatness: 3 } },
      ]);
      expect(await entry(ada.id)).toMatchObject({ student_class: cls, version: 1, updated_by: teacher.userId });

      const second = await ratings(cls, admin, [
        { admission_number: ada.admissionNumber, ratings: { honesty: null, music: 2 }, version: 1 },
      ]);
      expect(second.json<RatingSheetSaved>().rows).toEqual([
        { admission_number: ada.admissionNumber, version: 2, ratings: { neatness: 4, music: 2 } },
      ]);

      // Bola's row is current, Ada's is stale: neither is written.
      const stale = await ratings(cls, teacher, [
        { admission_number: bola.admissionNumber, ratings: { neatness: 5 }, version: 1 },
        { admission_number: ada.admissionNumber, ratings: { neatness: 1 }, version: 1 },
      ]);
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({
        detail: REPORT_MESSAGES.changedByOther('Ada Eze'),
        code: CARD_CODES.changed,
        admission_number: ada.admissionNumber,
      });
      expect(await entry(bola.id)).toMatchObject({ version: 1, ratings: '{"neatness":3}' });
      expect(await entry(ada.id)).toMatchObject({ version: 2 });

      // A row with no entry yet, saved as version 1: changed by someone else (it was deleted, or never made).
      const ghost = await ratings(cls, teacher, [{ admission_number: bola.admissionNumber, ratings: { neatness: 5 }, version: 7 }]);
      expect(ghost.statusCode).toBe(409);

      const audits = await ctx.handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'report_card_entry')
        .where('entity_id', '=', `${sessionId}/1st/${ada.admissionNumber}`)
        .orderBy('id')
        .execute();
      expect(
        audits.map((a) => [a.action, a.actor_user_id, JSON.parse(a.before ?? 'null')?.ratings ?? null, JSON.parse(a.after!).ratings]),
      ).toEqual([
        ['create', teacher.userId, null, { honesty: 5, neatness: 4 }],
        ['update', admin.userId, { honesty: 5, neatness: 4 }, { music: 2, neatness: 4 }],
      ]);
    });

    it('a replay (an older version, the same ratings as stored) is 200 with the stored row, writes nothing and audits nothing; other ratings on it stay 409', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade']);
      const [ada, bola] = kids as [(typeof kids)[0], (typeof kids)[0]];
      const first = await ratings(cls, teacher, [
        { admission_number: ada.admissionNumber, ratings: { neatness: 4, honesty: 5 }, version: 0 },
      ]);
      expect(first.statusCode, first.body).toBe(200);
      const stored = await entry(ada.id);
      const audits = () =>
        ctx.handle.db
          .selectFrom('audit_log')
          .select('id')
          .where('entity', '=', 'report_card_entry')
          .where('entity_id', 'like', `${sessionId}/1st/%`)
          .execute();
      const auditedBefore = (await audits()).length;

      // The answer was lost offline: the outbox sends the same row again on the version it was made on (0).
      const replay = await ratings(cls, teacher, [
        { admission_number: ada.admissionNumber, ratings: { honesty: 5, neatness: 4 }, version: 0 },
      ]);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json<RatingSheetSaved>().rows).toEqual([
        { admission_number: ada.admissionNumber, version: 1, ratings: { neatness: 4, honesty: 5 } },
      ]);
      expect(await entry(ada.id)).toEqual(stored);
      expect((await audits()).length).toBe(auditedBefore);

      // Someone else has written the row since (version 2): the same ratings on version 1 are still a replay.
      const again = await ratings(cls, admin, [{ admission_number: ada.admissionNumber, ratings: { music: 3 }, version: 1 }]);
      expect(again.json<RatingSheetSaved>().rows[0]!.version).toBe(2);
      const late = await ratings(cls, teacher, [
        { admission_number: ada.admissionNumber, ratings: { neatness: 4, honesty: 5 }, version: 1 },
        { admission_number: bola.admissionNumber, ratings: { neatness: 2 }, version: 0 },
      ]);
      expect(late.statusCode, late.body).toBe(200);
      expect(late.json<RatingSheetSaved>().rows).toEqual([
        { admission_number: ada.admissionNumber, version: 2, ratings: { neatness: 4, honesty: 5, music: 3 } },
        { admission_number: bola.admissionNumber, version: 1, ratings: { neatness: 2 } },
      ]);
      expect(await entry(ada.id)).toMatchObject({ version: 2, updated_by: admin.userId });
      expect((await audits()).length).toBe(auditedBefore + 2);

      // Different ratings on an old version: a conflict, nothing of the request written.
      const differ = await ratings(cls, teacher, [
        { admission_number: bola.admissionNumber, ratings: { neatness: 3 }, version: 1 },
        { admission_number: ada.admissionNumber, ratings: { neatness: 5, honesty: 5 }, version: 1 },
      ]);
      expect(differ.statusCode).toBe(409);
      expect(differ.json()).toEqual({
        detail: REPORT_MESSAGES.changedByOther('Ada Eze'),
        code: CARD_CODES.changed,
        admission_number: ada.admissionNumber,
      });
      expect(await entry(bola.id)).toMatchObject({ version: 1, ratings: '{"neatness":2}' });
      expect(await entry(ada.id)).toMatchObject({ version: 2 });
      expect((await audits()).length).toBe(auditedBefore + 2);
    });

    it('the write itself is version-checked: a row written between the read and the write is not overwritten (a concurrent save)', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade']);
      const [ada, bola] = kids as [(typeof kids)[0], (typeof kids)[0]];
      await ratings(cls, teacher, [{ admission_number: ada.admissionNumber, ratings: { neatness: 4 }, version: 0 }]);
      const repo = new CardEntriesRepository(ctx.handle.db, dialect);
      // An entry of the student with one rating, written at `version` (blankEntry reads only the student's id).
      const row = (id: number, version: number) => ({ ...blankEntry({ id } as SheetStudentRow, cls), ratings: '{"neatness":1}', version });
      // Ada's row was read as "no entry yet" (0) by a saver that lost the race; Bola's is new.
      const done = await repo.transaction((trx) =>
        repo.upsertIfVersion(trx, sessionId, '1st', [row(ada.id, 0), row(bola.id, 0)], admin.userId),
      );
      expect([...done]).toEqual([[bola.id, 1]]);
      expect(await entry(ada.id)).toMatchObject({ version: 1, ratings: '{"neatness":4}' });
    });

    it('refuses a trait not in the settings, a student not in the arm and a student twice (400)', async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      const outsider = await addStudent(ctx, 'JSS 1A', 'Chidi', 'Nwosu');
      const adm = kids[0]!.admissionNumber;
      const unknown = await ratings(cls, teacher, [{ admission_number: adm, ratings: { juggling: 3 }, version: 0 }]);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ 'rows.0.ratings': [REPORT_MESSAGES.unknownTrait] });
      const notHere = await ratings(cls, teacher, [{ admission_number: outsider.admissionNumber, ratings: { neatness: 3 }, version: 0 }]);
      expect(notHere.statusCode).toBe(400);
      expect(notHere.json()).toEqual({ 'rows.0.admission_number': [REPORT_MESSAGES.notInClass(outsider.admissionNumber, cls)] });
      const twice = await ratings(cls, teacher, [
        { admission_number: adm, ratings: { neatness: 3 }, version: 0 },
        { admission_number: adm, ratings: { neatness: 4 }, version: 0 },
      ]);
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toEqual({ 'rows.1.admission_number': [ASSESSMENT_MESSAGES.csvDuplicateStudent(adm)] });
      const range = await ratings(cls, teacher, [{ admission_number: adm, ratings: { neatness: 6 }, version: 0 }]);
      expect(range.statusCode).toBe(400);
      expect(await entry(kids[0]!.id)).toBeUndefined();
    });

    it("a removed trait's ratings are kept but not shown, and come back with the trait", async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      const adm = kids[0]!.admissionNumber;
      await ratings(cls, teacher, [{ admission_number: adm, ratings: { neatness: 4, music: 3 }, version: 0 }]);
      const without = DEFAULT_TRAITS.psychomotor.filter((t) => t.id !== 'music');
      expect((await saveSettings({ traits: { affective: DEFAULT_TRAITS.affective, psychomotor: without } })).statusCode).toBe(200);
      expect((await get(`/api/class-ratings/?${query(cls)}`, teacher)).json<RatingSheet>().rows[0]!.ratings).toEqual({ neatness: 4 });
      const gone = await ratings(cls, teacher, [{ admission_number: adm, ratings: { music: 5 }, version: 1 }]);
      expect(gone.json()).toEqual({ 'rows.0.ratings': [REPORT_MESSAGES.unknownTrait] });
      const saved = await ratings(cls, teacher, [{ admission_number: adm, ratings: { neatness: 5 }, version: 1 }]);
      expect(saved.json<RatingSheetSaved>().rows[0]!.ratings).toEqual({ neatness: 5 });
      expect(JSON.parse((await entry(kids[0]!.id))!.ratings)).toEqual({ music: 3, neatness: 5 });
      await saveSettings({});
      expect((await get(`/api/class-ratings/?${query(cls)}`, teacher)).json<RatingSheet>().rows[0]!.ratings).toEqual({
        music: 3,
        neatness: 5,
      });
    });
  });

  describe('the lock', () => {
    for (const status of ['submitted', 'approved', 'released'] as const) {
      it(`${status}: the form teacher's writes are 409 cards_locked; the admin still writes`, async () => {
        const { cls, kids } = await arm(['Ada Eze']);
        if (status === 'released')
          await ctx.handle.db
            .insertInto('result_publications')
            .values({ session_id: sessionId, term: '1st', student_class: cls, published_by: admin.userId, published_at: nowIso() })
            .execute();
        else await setStatus(cls, status);
        const adm = kids[0]!.admissionNumber;
        const label = status[0]!.toUpperCase() + status.slice(1);
        const locked = { detail: REPORT_MESSAGES.lockedSubmitted(cls, label), code: CARD_CODES.locked };
        for (const res of [
          await ratings(cls, teacher, [{ admission_number: adm, ratings: { neatness: 4 }, version: 0 }]),
          await comments(cls, teacher, [{ admission_number: adm, form_comment: 'Good', version: 0 }]),
          await suggest(cls, teacher),
        ]) {
          expect(res.statusCode).toBe(409);
          expect(res.json()).toEqual(locked);
        }
        expect(await entry(kids[0]!.id)).toBeUndefined();
        expect((await get(`/api/class-ratings/?${query(cls)}`, teacher)).json<RatingSheet>()).toMatchObject({
          status,
          may_edit_form: false,
        });
        const fixed = await ratings(cls, admin, [{ admission_number: adm, ratings: { neatness: 4 }, version: 0 }]);
        expect(fixed.statusCode).toBe(200);
      });
    }

    it('a draft status row (sent back) lets the form teacher write again', async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      await setStatus(cls, 'draft');
      const res = await ratings(cls, teacher, [{ admission_number: kids[0]!.admissionNumber, ratings: { neatness: 4 }, version: 0 }]);
      expect(res.statusCode).toBe(200);
    });
  });

  describe('the comment sheet', () => {
    async function scored(cls: string, kids: { id: number }[], scores: number[][], terms = ['1st']) {
      const rows = [];
      for (const term of terms)
        for (const [k, list] of scores.entries())
          for (const [j, score] of list.entries())
            rows.push({
              studentId: kids[k]!.id,
              sessionId,
              term: term as '1st',
              arm: cls,
              subject: ['Mathematics', 'English Language'][j]!,
              score,
            });
      await createResults(ctx.handle.db, rows);
    }

    it('shows averages, positions and the bank suggestions; the form teacher writes comments and attendance, not the principal part', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade', 'Chi Obi']);
      await scored(cls, kids, [
        [80, 70],
        [50, 40],
        [30, 30],
      ]);
      const sheet = await sheetOf<CommentSheet>('comments', cls, teacher);
      expect(sheet).toMatchObject({
        status: 'draft',
        may_edit_form: true,
        may_edit_principal: false,
        times_opened: null,
        require_comments: false,
      });
      const form = (min: number) => DEFAULT_COMMENT_BANK.find((c) => c.kind === 'form' && c.min === min)!.text;
      expect(sheet.rows.map((r) => [r.name, r.average, r.position, r.suggested_form, r.promotion, r.version])).toEqual([
        ['Bola Ade', 45, 2, form(40), null, 0],
        ['Ada Eze', 75, 1, form(70), null, 0],
        ['Chi Obi', 30, 3, form(0), null, 0],
      ]);

      const ada = kids[0]!.admissionNumber;
      const ok = await comments(cls, teacher, [
        { admission_number: ada, form_comment: '  Keeps improving. ', days_present: 100, days_absent: 4, version: 0 },
      ]);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<CommentSheetSaved>().rows[0]).toMatchObject({
        admission_number: ada,
        form_comment: 'Keeps improving.',
        days_present: 100,
        days_absent: 4,
        average: 75,
        position: 1,
        version: 1,
      });

      const principal = await comments(cls, teacher, [{ admission_number: ada, principal_comment: 'Well done', version: 1 }]);
      expect(principal.statusCode).toBe(403);
      expect(principal.json()).toEqual({ detail: REPORT_MESSAGES.principalOnly });
      // Sending the principal's comment back unchanged is no write of it.
      const same = await comments(cls, teacher, [
        { admission_number: ada, principal_comment: '', form_comment: 'Keeps improving!', version: 1 },
      ]);
      expect(same.statusCode).toBe(200);
      const byAdmin = await comments(cls, admin, [{ admission_number: ada, principal_comment: 'Well done', version: 2 }]);
      expect(byAdmin.json<CommentSheetSaved>().rows[0]).toMatchObject({
        form_comment: 'Keeps improving!',
        principal_comment: 'Well done',
        version: 3,
      });
    });

    it('comments are text fields: control characters, bidi overrides and NUL are refused (400, nothing written); line breaks are kept', async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      const adm = kids[0]!.admissionNumber;
      for (const bad of ['Good\u0007', 'Good \u202Eboy', 'Good\u0000', '\u200B\u200C']) {
        const res = await comments(cls, teacher, [{ admission_number: adm, form_comment: bad, version: 0 }]);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(Object.keys(res.json())[0]).toMatch(/^(rows\.0\.form_comment|non_field_errors|detail)$/);
      }
      expect(await entry(kids[0]!.id)).toBeUndefined();
      const ok = await comments(cls, teacher, [{ admission_number: adm, form_comment: 'Good work.\nKeep it up.', version: 0 }]);
      expect(ok.json<CommentSheetSaved>().rows[0]!.form_comment).toBe('Good work.\nKeep it up.');
    });

    it('a replay (an older version, the same comment and attendance as stored) is 200 with the stored row, writes nothing and audits nothing; a different comment on it stays 409', async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      const ada = kids[0]!;
      const row = { admission_number: ada.admissionNumber, form_comment: 'A careful worker.', days_present: 50, days_absent: 2 };
      const first = await comments(cls, teacher, [{ ...row, version: 0 }]);
      expect(first.statusCode, first.body).toBe(200);
      const stored = await entry(ada.id);
      const audits = () =>
        ctx.handle.db
          .selectFrom('audit_log')
          .select('id')
          .where('entity', '=', 'report_card_entry')
          .where('entity_id', '=', `${sessionId}/1st/${ada.admissionNumber}`)
          .execute();
      expect(await audits()).toHaveLength(1);

      // The same save sent again on version 0 (its answer was lost): the row as stored, nothing written.
      const replay = await comments(cls, teacher, [{ ...row, form_comment: ' A careful worker. ', version: 0 }]);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json<CommentSheetSaved>().rows[0]).toMatchObject({ ...row, principal_comment: '', version: 1 });
      expect(await entry(ada.id)).toEqual(stored);
      expect(await audits()).toHaveLength(1);

      // The admin's comment since (version 2): the teacher's replay only sends its own fields, still the same.
      await comments(cls, admin, [{ admission_number: ada.admissionNumber, principal_comment: 'Well done', version: 1 }]);
      const late = await comments(cls, teacher, [{ ...row, version: 0 }]);
      expect(late.statusCode, late.body).toBe(200);
      expect(late.json<CommentSheetSaved>().rows[0]).toMatchObject({ ...row, principal_comment: 'Well done', version: 2 });
      expect(await audits()).toHaveLength(2);

      // A different comment (or attendance) on an old version: a conflict; nothing written.
      for (const change of [{ form_comment: 'Changed my mind.' }, { days_absent: 3 }]) {
        const differ = await comments(cls, teacher, [{ ...row, ...change, version: 1 }]);
        expect(differ.statusCode).toBe(409);
        expect(differ.json()).toEqual({
          detail: REPORT_MESSAGES.changedByOther('Ada Eze'),
          code: CARD_CODES.changed,
          admission_number: ada.admissionNumber,
        });
      }
      expect(await entry(ada.id)).toMatchObject({ version: 2, form_comment: row.form_comment, days_absent: 2 });
      expect(await audits()).toHaveLength(2);
    });

    it("attendance cannot exceed the term's times school opened", async () => {
      const { cls, kids } = await arm(['Ada Eze']);
      await send('PUT', '/api/report-terms/', admin, { session_id: sessionId, term: '2nd', next_term_begins: null, times_opened: 60 });
      const adm = kids[0]!.admissionNumber;
      const over = await comments(cls, teacher, [{ admission_number: adm, days_present: 50, days_absent: 11, version: 0 }], '2nd');
      expect(over.statusCode).toBe(400);
      expect(over.json()).toEqual({ 'rows.0.days_present': [REPORT_MESSAGES.attendanceOverOpened(60)] });
      expect(await entry(kids[0]!.id, '2nd')).toBeUndefined();
      const ok = await comments(cls, teacher, [{ admission_number: adm, days_present: 50, days_absent: 10, version: 0 }], '2nd');
      expect(ok.statusCode).toBe(200);
      expect((await get(`/api/class-comments/?${query(cls, '2nd')}`, teacher)).json<CommentSheet>().times_opened).toBe(60);
      await send('PUT', '/api/report-terms/', admin, { session_id: sessionId, term: '2nd', next_term_begins: null, times_opened: null });
    });

    it('the promotion block: computed from the annual averages in the third term; the override is the admin’s, third term only, with a reason', async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade', 'Chi Obi']);
      // Ada passes; Bola averages 45 but fails Mathematics (trial); Chi averages 30 (repeat).
      await scored(
        cls,
        kids,
        [
          [60, 60],
          [30, 60],
          [30, 30],
        ],
        ['1st', '2nd', '3rd'],
      );
      const sheet = (await get(`/api/class-comments/?${query(cls, '3rd')}`, teacher)).json<CommentSheet>();
      expect(sheet.rows.map((r) => [r.name, r.promotion])).toEqual([
        ['Bola Ade', { computed: 'trial', override: null, reason: '', annual_average: 45 }],
        ['Ada Eze', { computed: 'promoted', override: null, reason: '', annual_average: 60 }],
        ['Chi Obi', { computed: 'repeat', override: null, reason: '', annual_average: 30 }],
      ]);
      const chi = kids[2]!.admissionNumber;
      const staffOverride = await comments(
        cls,
        teacher,
        [{ admission_number: chi, promotion_override: 'promoted', override_reason: 'Ill', version: 0 }],
        '3rd',
      );
      expect(staffOverride.statusCode).toBe(403);
      expect(staffOverride.json()).toEqual({ detail: REPORT_MESSAGES.principalOnly });
      const noReason = await comments(cls, admin, [{ admission_number: chi, promotion_override: 'trial', version: 0 }], '3rd');
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ 'rows.0.override_reason': [REPORT_MESSAGES.overrideReasonRequired] });
      const firstTerm = await comments(cls, admin, [
        { admission_number: chi, promotion_override: 'trial', override_reason: 'Ill', version: 0 },
      ]);
      expect(firstTerm.statusCode).toBe(400);
      expect(firstTerm.json()).toEqual({ 'rows.0.promotion_override': [REPORT_MESSAGES.promotionThirdTermOnly] });
      const ok = await comments(
        cls,
        admin,
        [{ admission_number: chi, promotion_override: 'trial', override_reason: 'Ill all term', version: 0 }],
        '3rd',
      );
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<CommentSheetSaved>().rows[0]!.promotion).toEqual({
        computed: 'repeat',
        override: 'trial',
        reason: 'Ill all term',
        annual_average: 30,
      });
      const cleared = await comments(cls, admin, [{ admission_number: chi, promotion_override: null, version: 1 }], '3rd');
      expect(cleared.json<CommentSheetSaved>().rows[0]!.promotion).toMatchObject({ override: null, reason: '' });
    });
  });

  describe('comment suggestions', () => {
    it("fills each student without a comment from the bank by term average; overwrite replaces all; the principal's are the admin's", async () => {
      const { cls, kids } = await arm(['Ada Eze', 'Bola Ade', 'Chi Obi']);
      await createResults(
        ctx.handle.db,
        [80, 50, 20].map((score, i) => ({
          studentId: kids[i]!.id,
          sessionId,
          term: '1st' as const,
          arm: cls,
          subject: 'Mathematics',
          score,
        })),
      );
      const bola = kids[1]!.admissionNumber;
      await comments(cls, teacher, [{ admission_number: bola, form_comment: 'My own words', version: 0 }]);
      const res = await suggest(cls, teacher);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ applied: 2 });
      const text = (kind: string, min: number) => DEFAULT_COMMENT_BANK.find((c) => c.kind === kind && c.min === min)!.text;
      const sheet = () => get(`/api/class-comments/?${query(cls)}`, admin).then((r) => r.json<CommentSheet>());
      expect((await sheet()).rows.map((r) => [r.name, r.form_comment, r.version])).toEqual([
        ['Bola Ade', 'My own words', 1],
        ['Ada Eze', text('form', 70), 1],
        ['Chi Obi', text('form', 0), 1],
      ]);
      const over = await suggest(cls, teacher, { overwrite: true });
      expect(over.json()).toMatchObject({ applied: 1 });
      expect((await sheet()).rows[0]).toMatchObject({ form_comment: text('form', 40), version: 2 });

      const staffPrincipal = await suggest(cls, teacher, { kind: 'principal' });
      expect(staffPrincipal.statusCode).toBe(403);
      expect(staffPrincipal.json()).toEqual({ detail: REPORT_MESSAGES.principalOnly });
      const principal = await suggest(cls, admin, { kind: 'principal' });
      expect(principal.json()).toMatchObject({ applied: 3 });
      expect((await sheet()).rows.map((r) => r.principal_comment)).toEqual([
        text('principal', 40),
        text('principal', 70),
        text('principal', 0),
      ]);
      const audits = await ctx.handle.db
        .selectFrom('audit_log')
        .select('id')
        .where('entity', '=', 'report_card_entry')
        .where('entity_id', 'like', `%/${bola}`)
        .execute();
      expect(audits.length).toBe(3);
    });
  });

  describe('a fixed number of statements, whatever the number of students', () => {
    /** The service over a connection of its own that counts the statements it runs. */
    const counting = (run: (svc: ReportSheetsService) => Promise<unknown>): Promise<number> =>
      countStatements(ctx, dialect, (db) => run(servicesOver(ctx, db).reportSheets));

    it('saving 2 or 60 rows of ratings and comments, and loading the sheets: the same count', async () => {
      const counts: number[][] = [];
      for (const size of [2, 60]) {
        const { cls, kids } = await arm(Array.from({ length: size }, (_, i) => `N${i} Count${i}`));
        const q = { session_id: sessionId, term: '3rd' as const, student_class: cls };
        const actor = { id: teacher.userId, role: 'staff' as const };
        counts.push([
          await counting((svc) =>
            svc.saveRatings(actor, {
              ...q,
              rows: kids.map((k) => ({ admission_number: k.admissionNumber, ratings: { neatness: 3 }, version: 0 })),
            }),
          ),
          await counting((svc) =>
            svc.saveComments(actor, {
              ...q,
              rows: kids.map((k) => ({ admission_number: k.admissionNumber, form_comment: 'Fine', version: 1 })),
            }),
          ),
          await counting((svc) => svc.ratingSheet(actor, q)),
          await counting((svc) => svc.commentSheet(actor, q)),
        ]);
        expect(
          (await get(`/api/class-comments/?${query(cls, '3rd')}`, teacher)).json<CommentSheet>().rows.every((r) => r.version === 2),
        ).toBe(true);
      }
      expect(counts[0]).toEqual(counts[1]);
      for (const n of counts[1]!) expect(n).toBeLessThanOrEqual(16);
    });
  });
});
