import { inflateSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_JSS_SCALE, DEFAULT_REPORT_SETTINGS } from '@portal/domain';
import { describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { putCardFees, putEntry, putTerm } from '../../../test/card-fixtures';
import { PDFDocument, type PDFRawStream } from 'pdf-lib';
import { pdfPageCount, pdfText } from '../../../test/pdf-text';
import { createFeeItems, createPayment } from '../../db/factories';
import { SettingsRepository } from '../settings/settings.repository';
import type { ConcurrencyLimiter } from '../../lib/limiter';

/** A PDF's streams, raw (as stored: compressed). */
const streamsOf = (pdf: Buffer): string[] => [...pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => m[1]!);
/** Each page's content stream, as stored (pdfkit writes one a page). */
async function pageContents(pdf: Buffer): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((p) => Buffer.from((p.node.Contents() as PDFRawStream).getContents()).toString('base64'));
}
/** The text of a compressed single-document PDF: its streams inflated, then read as tests read an uncompressed one. */
const textOf = (pdf: Buffer): string =>
  pdfText(
    Buffer.from(
      pdf
        .toString('latin1')
        .replace(/(\/FlateDecode[\s\S]*?stream\r?\n)([\s\S]*?)(\r?\nendstream)/g, (_all, head: string, body: string, tail: string) => {
          try {
            return head.replace('/FlateDecode', '') + inflateSync(Buffer.from(body, 'latin1')).toString('latin1') + tail;
          } catch {
            return head + body + tail;
          }
        }),
      'latin1',
    ),
  );

/**
 * Report-card PDFs made once (issue 37 item 3, decision 050): drawn in the background at release,
 * stored with the fingerprint of what the card shows, served with an ETag (a repeat is a 304), drawn
 * again after any change that shows on the card; the class PDF joined from the stored cards.
 */
describeEachDatabase('stored report-card PDFs', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass, asCurrent } = resultsKit(
    () => ctx,
    () => staff,
  );
  const pdfs = () => ctx.app.cardPdfs;
  afterEach(async () => {
    pdfs().resume();
    await pdfs().idle();
    await new SettingsRepository(ctx.handle.db).putReport(DEFAULT_REPORT_SETTINGS);
  });
  const cardUrl = (sessionId: number, admission: string, term = '1st') =>
    `/api/report-card/pdf/?session_id=${sessionId}&term=${term}&admission_number=${admission}`;
  const classUrl = (sessionId: number, cls: string, term = '1st') =>
    `/api/report-cards/pdf/?session_id=${sessionId}&term=${term}&student_class=${encodeURIComponent(cls)}`;
  const get = (url: string, who: SignedIn, etag?: string) =>
    ctx.app.inject({
      method: 'GET',
      url,
      headers: { authorization: who.auth.authorization, ...(etag ? { 'if-none-match': etag } : {}) },
    } as never);

  it('draws the released cards in the background, serves the stored file with an ETag, and a repeat is a 304', async () => {
    const { sessionId, cls, student } = await rankedClass({ admin, publish: ['1st'] });
    await pdfs().idle();
    const storage = (await inject('GET', '/api/report-card-pdfs/storage/', admin.auth)).json();
    expect(storage.cards.files).toBe(4);
    expect(storage.classes.files).toBe(1);
    expect(storage.total_bytes).toBeGreaterThan(4 * 1000);
    const drawn = pdfs().drawn;

    const res = await get(cardUrl(sessionId, student.admissionNumber), student);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(textOf(res.rawPayload)).toContain('Chiamaka');
    // The student's card is the file the background drew: nothing drawn on request.
    expect(pdfs().drawn).toBe(drawn);

    const again = await get(cardUrl(sessionId, student.admissionNumber), student, etag);
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // Another tag is not a match: the file.
    expect((await get(cardUrl(sessionId, student.admissionNumber), student, '"0000"')).statusCode).toBe(200);

    // The class PDF: the stored one, a 304 on a repeat.
    const whole = await get(classUrl(sessionId, cls), staff);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect((await get(classUrl(sessionId, cls), staff, whole.headers.etag as string)).statusCode).toBe(304);
    expect(pdfs().drawn).toBe(drawn);
  });

  it('the class PDF is the set of stored cards, in register order', async () => {
    const { sessionId, cls, student, mates } = await rankedClass({ admin, publish: ['1st'] });
    await pdfs().idle();
    const whole = await get(classUrl(sessionId, cls), staff);
    expect(whole.statusCode).toBe(200);
    // The class's order, as the class's cards (JSON) list them.
    const order = (await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=1st&student_class=${cls}`, staff.auth))
      .json<{ student: { admission_number: string } }[]>()
      .map((c) => c.student.admission_number);
    expect([...order].sort()).toEqual([student, ...mates].map((s) => s.admissionNumber).sort());
    const cards = [];
    for (const a of order) {
      const one = await get(cardUrl(sessionId, a), admin);
      expect(one.statusCode).toBe(200);
      cards.push(one.rawPayload);
    }
    expect(pdfPageCount(whole.rawPayload)).toBe(4);
    // Joined from the four stored files, in the class's order: page i
    // draws exactly what stored card i draws (the same content stream, byte for byte), and every
    // stream of each stored card (its fonts, images) is in the class file as stored.
    const pages = await pageContents(whole.rawPayload);
    expect(pages).toHaveLength(4);
    const file = whole.rawPayload.toString('latin1');
    for (const [i, card] of cards.entries()) {
      expect(pages[i]).toEqual((await pageContents(card))[0]);
      for (const st of streamsOf(card)) expect(file.includes(st)).toBe(true);
    }
  });

  it('a withdrawal drops the student’s stored files and their arm’s joined file; the others stay, and a readmitted card is drawn again', async () => {
    const { sessionId, cls, student, mates } = await rankedClass({ admin, publish: ['1st'] });
    await pdfs().idle();
    expect((await get(classUrl(sessionId, cls), staff)).statusCode).toBe(200);
    const stored = async () => {
      const db = ctx.handle.db;
      const cards = await db
        .selectFrom('report_card_pdfs as p')
        .innerJoin('students as s', 's.id', 'p.student_id')
        .select('s.admission_number')
        .where('p.session_id', '=', sessionId)
        .execute();
      const classes = await db.selectFrom('report_class_pdfs').select('student_class').where('session_id', '=', sessionId).execute();
      return { cards: new Set(cards.map((c) => c.admission_number)), classes: classes.map((c) => c.student_class) };
    };
    const before = await stored();
    expect(before.cards.has(student.admissionNumber)).toBe(true);
    expect(before.classes).toEqual([cls]);

    expect((await inject('POST', `/api/students/${student.admissionNumber}/withdraw/`, admin.auth)).statusCode).toBe(200);
    const after = await stored();
    expect(after.cards.has(student.admissionNumber)).toBe(false);
    for (const m of mates) expect(after.cards.has(m.admissionNumber)).toBe(true);
    expect(after.classes).toEqual([]);

    // Readmitted: the card is drawn again on request, and stored again.
    expect((await inject('POST', `/api/students/${student.admissionNumber}/readmit/`, admin.auth)).statusCode).toBe(200);
    const drawn = pdfs().drawn;
    expect((await get(cardUrl(sessionId, student.admissionNumber), admin)).statusCode).toBe(200);
    expect(pdfs().drawn).toBe(drawn + 1);
    expect((await stored()).cards.has(student.admissionNumber)).toBe(true);
  });

  it('any change that shows on the card makes its stored PDF stale', async () => {
    const { session, sessionId, cls, student } = await rankedClass({ admin, publish: ['1st'] });
    await pdfs().idle();
    const db = ctx.handle.db;
    const tag = async () => {
      const res = await get(cardUrl(sessionId, student.admissionNumber), student);
      expect(res.statusCode).toBe(200);
      return { etag: res.headers.etag as string, text: textOf(res.rawPayload) };
    };
    let last = await tag();
    const changes: [string, () => Promise<unknown>, string?][] = [
      [
        'score',
        () =>
          db
            .updateTable('results')
            .set({ score: 55 })
            .where('student_id', '=', student.id)
            .where('session_id', '=', sessionId)
            .where('term', '=', '1st')
            .where('subject', '=', 'Mathematics')
            .execute(),
      ],
      [
        'comment',
        () => putEntry(db, { student_id: student.id, session_id: sessionId, term: '1st', student_class: cls, form_comment: 'Tidy work.' }),
        'Tidy work.',
      ],
      [
        'rating',
        () =>
          putEntry(db, {
            student_id: student.id,
            session_id: sessionId,
            term: '1st',
            student_class: cls,
            form_comment: 'Tidy work.',
            ratings: { punctuality: 4 },
          }),
      ],
      [
        'attendance',
        () =>
          putEntry(db, {
            student_id: student.id,
            session_id: sessionId,
            term: '1st',
            student_class: cls,
            form_comment: 'Tidy work.',
            ratings: { punctuality: 4 },
            days_present: 41,
            days_absent: 3,
          }),
      ],
      ['term dates', () => putTerm(db, { session_id: sessionId, term: '1st', next_term_begins: '2101-01-12', times_opened: 44 })],
      ['fees', () => putCardFees(db, { sessionId, sessionName: session.name, arm: cls, student })],
      ['fee item', () => createFeeItems(db, [{ arm: cls, sessionId, term: '2nd', name: 'Lab', amountKobo: 700_000, compulsory: true }])],
      [
        'payment',
        () =>
          createPayment(db, {
            reference: `pdf-${sessionId}-2`,
            studentId: student.id,
            admissionNumber: student.admissionNumber,
            arm: cls,
            session: session.name,
            term: '1st',
            amountKobo: 500_000,
            status: 'successful',
          }),
      ],
      [
        'setting',
        () =>
          new SettingsRepository(db).putReport({
            ...DEFAULT_REPORT_SETTINGS,
            rating_labels: ['Weak', 'Fair', 'Good', 'Very good', 'Superb'],
          }),
        'Superb',
      ],
      [
        'grading scale',
        () =>
          asCurrent(sessionId, async () => {
            const bands = DEFAULT_JSS_SCALE.map((b, i) => (i === 0 ? { ...b, remark: 'Outstanding' } : b));
            const res = await inject('PUT', '/api/grading-scales/JSS/', admin.auth, { bands, confirm: true });
            expect(res.statusCode).toBe(200);
          }),
        'Outstanding',
      ],
    ];
    for (const [name, change, shows] of changes) {
      const drawn = pdfs().drawn;
      await change();
      const now = await tag();
      expect(now.etag, name).not.toBe(last.etag);
      expect(pdfs().drawn, name).toBe(drawn + 1);
      if (shows) expect(now.text, name).toContain(shows);
      // The old tag is no longer a 304.
      expect((await get(cardUrl(sessionId, student.admissionNumber), student, last.etag)).statusCode, name).toBe(200);
      // And the new file is stored: a second request draws nothing.
      const again = await get(cardUrl(sessionId, student.admissionNumber), student, now.etag);
      expect(again.statusCode, name).toBe(304);
      expect(pdfs().drawn, name).toBe(drawn + 1);
      last = now;
    }
  });

  it('never serves a stored card to someone who may not see it: an unreleased card, another student', async () => {
    const { sessionId, cls, student, mates } = await rankedClass({ admin, publish: ['1st'] });
    await pdfs().idle();
    const mine = await get(cardUrl(sessionId, student.admissionNumber), student);
    expect(mine.statusCode).toBe(200);
    // Another student's card, even with its current tag: refused before any stored file is looked up.
    const theirs = await get(cardUrl(sessionId, mates[0]!.admissionNumber), admin);
    expect(theirs.statusCode).toBe(200);
    const other = await get(cardUrl(sessionId, mates[0]!.admissionNumber), student, theirs.headers.etag);
    expect(other.statusCode).toBe(403);
    expect(other.headers.etag).toBeUndefined();
    // Withdrawn: the stored file stays, but the student gets 404, with or without the tag.
    const pubs = (await inject('GET', `/api/results/publications/?session_id=${sessionId}&term=1st`, admin.auth)).json();
    const pub = pubs.find((p: { student_class: string }) => p.student_class === cls);
    expect((await inject('DELETE', `/api/results/publications/${pub.id}/`, admin.auth)).statusCode).toBe(204);
    expect((await get(cardUrl(sessionId, student.admissionNumber), student, mine.headers.etag as string)).statusCode).toBe(404);
    expect((await get(cardUrl(sessionId, student.admissionNumber), student)).statusCode).toBe(404);
    // The admin still reads the unreleased card: drawn (it says so), never the stored released file.
    const drawn = pdfs().drawn;
    const draft = await get(cardUrl(sessionId, student.admissionNumber), admin);
    expect(draft.statusCode).toBe(200);
    expect(draft.headers.etag).not.toBe(mine.headers.etag);
    expect(textOf(draft.rawPayload)).toContain('not yet released');
    expect(pdfs().drawn).toBe(drawn); // unreleased cards are drawn but not stored (the store counts stored drawings)
    // An unreleased term never had a stored file: 2nd term is drafts only.
    expect((await get(cardUrl(sessionId, student.admissionNumber, '2nd'), student)).statusCode).toBe(404);
  });

  it('the background never holds a request: with it held and arms queued, a request draws its own card', async () => {
    pdfs().pause();
    const { sessionId, student } = await rankedClass({ admin, publish: ['1st'] });
    expect(pdfs().pending).toBe(1);
    const drawn = pdfs().drawn;
    const res = await get(cardUrl(sessionId, student.admissionNumber), student);
    expect(res.statusCode).toBe(200);
    expect(pdfs().drawn).toBe(drawn + 1);
    expect(pdfs().pending).toBe(1);
    // While requests draw (every place of the PDF limiter taken, one more waiting), the background waits.
    const renders = (ctx.app as unknown as { pdfRenders: ConcurrencyLimiter }).pdfRenders;
    const held = [];
    for (let i = 0; i < renders.limit; i++) held.push(await renders.enterQueue());
    const waiting = renders.enterQueue();
    pdfs().resume();
    // It parks (before its first card) and stays parked while the requests' places are taken.
    for (let i = 0; i < 10_000 && !pdfs().yielding; i++) await new Promise((r) => setImmediate(r));
    expect(pdfs().yielding).toBe(true);
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(pdfs().yielding).toBe(true);
    expect(pdfs().drawn).toBe(drawn + 1);
    for (const release of held) release();
    (await waiting)();
    await pdfs().idle();
    // Then it draws the three others (the student's card is current already) and the class.
    expect(pdfs().drawn).toBe(drawn + 4);
    const storage = (await inject('GET', '/api/report-card-pdfs/storage/', admin.auth)).json();
    expect(storage.classes.files).toBeGreaterThanOrEqual(1);
  });
});
