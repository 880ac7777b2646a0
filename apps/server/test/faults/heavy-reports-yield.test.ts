import PDFDocument from 'pdfkit';
import { expect, it, vi } from 'vitest';
import { feeItemKey } from '@portal/domain';
import { createPayment, createResults, type ResultInput } from '../../src/db/factories';
import { nowIso } from '../../src/db/index';
import { toCsv, toCsvInSlices } from '../../src/lib/csv';
import { PAGES_PER_SLICE, renderPdf } from '../../src/lib/pdf';
import { ROWS_PER_TURN } from '../../src/modules/payments/fee-reports.documents';
import { BursaryRepository } from '../../src/modules/payments/bursary.repository';
import { PeopleRepository } from '../../src/modules/people/people.repository';
import { addStudent, describeEachDatabase, withSchool, type TestSchool } from '../helpers';

const STUDENTS = 600;
const CLASSES = ['JSS 1A', 'JSS 1B', 'JSS 2A', 'SSS 1A', 'SSS 2A', 'SSS 3A'];
const SUBJECTS = ['Mathematics', 'English Language', 'Basic Science', 'Civic Education', 'Computer Studies'];

/** Everything the loop did while one request was answered: its turns, and the health checks answered meanwhile. */
async function whileAnswering(school: TestSchool, url: string) {
  const inject = (u: string) => school.ctx.app.inject({ method: 'GET', url: u, headers: school.admin.auth });
  let done = false;
  let turns = 0;
  let healthChecks = 0;
  const spin = (async () => {
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
  })();
  const monitor = (async () => {
    while (!done) {
      const r = await school.ctx.app.inject({ method: 'GET', url: '/api/health' });
      if (!done && r.statusCode === 200) healthChecks++;
      // A check may be answered in microtasks alone (SQLite): let the loop turn, as a polling client would.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const answer = await inject(url);
  done = true;
  await Promise.all([spin, monitor]);
  return { answer, turns, healthChecks };
}

/**
 * What pdfkit does in each turn of the event loop while `run` goes: texts drawn, pages begun, pages written
 * (a page's content compressed and written out) and fonts embedded (a font's subset encoded). pdfkit's
 * page and embedded-font classes are not exported: they are taken from a document.
 */
async function pdfWorkPerTurn(run: () => Promise<unknown>) {
  let page: object | undefined;
  let font: object | undefined;
  await renderPdf({}, (doc) => {
    doc.font('body').text('x');
    page = Object.getPrototypeOf((doc as unknown as { page: object }).page) as object;
    font = Object.getPrototypeOf((doc as unknown as { _font: object })._font) as object;
  });
  type Work = { texts: number; newPages: number; pages: number; fonts: number };
  const turns = new Map<number, Work>();
  let turn = 0;
  const count = (key: keyof Work) => {
    const w = turns.get(turn) ?? { texts: 0, newPages: 0, pages: 0, fonts: 0 };
    w[key]++;
    turns.set(turn, w);
  };
  const spy = <T extends object>(proto: T, method: string, key: keyof Work) => {
    const record = proto as Record<string, (...args: unknown[]) => unknown>;
    const original = record[method]!;
    return vi.spyOn(record, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      count(key);
      return original.apply(this, args);
    });
  };
  const spies = [
    spy(PDFDocument.prototype, 'text', 'texts'),
    spy(PDFDocument.prototype, 'addPage', 'newPages'),
    spy(page!, 'end', 'pages'),
    spy(font!, 'embed', 'fonts'),
  ];
  let done = false;
  const spin = (async () => {
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turn++;
    }
  })();
  try {
    await run();
  } finally {
    done = true;
    await spin;
    for (const s of spies) s.mockRestore();
  }
  return [...turns.values()];
}

/**
 * One user looping a heavy report must not hold the event loop: SQL on
 * better-sqlite3 is synchronous, so a report computed in one piece answers no one else until it
 * is done. Each heavy report of a seeded school of 600 students reads and computes in slices with
 * a turn of the loop between them, so health checks are answered while it computes. Deterministic:
 * it counts the loop's turns and the health checks answered, never milliseconds (on SQLite a report
 * in one piece lets through at most the few turns of its sign-in check and queue place).
 */
describeEachDatabase('heavy reports yield to the event loop', (dialect) => {
  let school: TestSchool;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    school = s;
    const db = s.ctx.handle.db;
    const now = nowIso();
    await db
      .insertInto('fee_items')
      .values(
        CLASSES.flatMap((cls) =>
          (['1st', '2nd', '3rd'] as const).flatMap((term) =>
            ['Tuition', 'Development levy', 'Books'].map((name) => ({
              student_class: cls,
              session_id: s.sessionId,
              term,
              name,
              name_key: feeItemKey(name),
              amount_kobo: 1_000_000,
              compulsory: 1,
              description: '',
              created_at: '2025-09-01T08:00:00.000Z',
              updated_at: now,
            })),
          ),
        ),
      )
      .execute();
    const results: ResultInput[] = [];
    for (let i = 0; i < STUDENTS; i++) {
      const cls = CLASSES[i % CLASSES.length]!;
      const kid = await addStudent(s.ctx, cls, `Pupil${i}`, `Family${i % 37}`);
      // Most pay part of their fees (some twice): the debtors, the ledger and the collections all have rows.
      for (let n = 0; n < (i % 5 === 0 ? 0 : i % 3 === 0 ? 2 : 1); n++)
        await createPayment(db, {
          reference: `HY-${dialect}-${i}-${n}`,
          studentId: kid.id,
          admissionNumber: kid.admissionNumber,
          arm: cls,
          session: '2025/2026',
          amountKobo: 500_000 + (i % 7) * 100_000,
          status: 'successful',
          term: '1st',
          paidAt: `2025-10-${String(1 + (i % 28)).padStart(2, '0')}T09:00:00.000Z`,
        });
      for (const subject of SUBJECTS)
        results.push({ studentId: kid.id, sessionId: s.sessionId, term: '1st', arm: cls, subject, score: 40 + ((i * 7) % 60) });
    }
    await createResults(db, results);
    // Half the payments recorded at the office with their day (the others online, without one): the
    // ledger's order has NULLs, which SQLite and PostgreSQL sort at opposite ends.
    await db
      .updateTable('payments')
      .set((eb) => ({ paid_on: eb.fn('substr', ['paid_at', eb.val(1), eb.val(10)]) }))
      .where((eb) => eb(eb('id', '%', 2), '=', 0))
      .execute();
  });

  const reports = (sessionId: number) => [
    '/api/bursary/debtors/',
    '/api/bursary/debtors.csv',
    '/api/bursary/debtors.pdf',
    '/api/bursary/collections/',
    '/api/bursary/ledger.csv',
    '/api/students/export/',
    `/api/broadsheet/?session_id=${sessionId}&term=1st`,
    `/api/broadsheet/csv/?session_id=${sessionId}&term=1st`,
    // An arm's cards (100 students), as JSON and as PDF.
    `/api/report-cards/?session_id=${sessionId}&term=1st&student_class=JSS%201B`,
    `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=JSS%201B`,
  ];

  it('while a report of 600 students computes, the loop turns and health checks are answered', async () => {
    const seen: string[] = [];
    for (const url of reports(school.sessionId)) {
      const { answer, turns, healthChecks } = await whileAnswering(school, url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body.length, url).toBeGreaterThan(1000);
      // At least one turn for every 100 students (slices of at most that size), and health checks between them.
      if (turns < STUDENTS / 100 || healthChecks < 3) seen.push(`${url}: ${turns} turns, ${healthChecks} health checks`);
    }
    expect(seen).toEqual([]);
  });

  it('while a PDF renders, no turn of the loop draws more than a page, a card or a slice of rows, writes more than a few pages or embeds more than a font', async () => {
    const pdfs = [
      // A slice of the debtors' rows (9 cells each: the brought-forward column since issue 34) and the table's heading.
      { url: '/api/bursary/debtors.pdf', maxTexts: 9 * (ROWS_PER_TURN + 1) },
      // A card a turn (a page each: 5 subjects): a page begun at most, whatever its texts.
      { url: `/api/report-cards/pdf/?session_id=${school.sessionId}&term=1st&student_class=JSS%201B`, maxTexts: Infinity },
    ];
    const long: string[] = [];
    for (const { url, maxTexts } of pdfs) {
      let answer: Awaited<ReturnType<typeof school.ctx.app.inject>> | undefined;
      const turns = await pdfWorkPerTurn(async () => {
        answer = await school.ctx.app.inject({ method: 'GET', url, headers: school.admin.auth });
      });
      expect(answer?.statusCode, url).toBe(200);
      expect(answer?.headers['content-type'], url).toContain('application/pdf');
      const total = turns.reduce((a, w) => ({ texts: a.texts + w.texts, newPages: 0, pages: a.pages + w.pages, fonts: a.fonts + w.fonts }));
      // Many pages (debtors) or cards (a class of 100), both fonts.
      expect(total.pages, url).toBeGreaterThan(8);
      expect(total.fonts, url).toBe(2);
      for (const w of turns)
        if (w.texts > maxTexts || w.newPages > 1 || w.pages > PAGES_PER_SLICE || w.fonts > 1 || (w.fonts > 0 && w.texts + w.pages > 0))
          long.push(`${url}: ${JSON.stringify(w)}`);
    }
    expect(long).toEqual([]);
  });

  it('the sliced reads and the sliced CSV give what one read and one write give', async () => {
    const db = school.ctx.handle.db;
    const bursary = new BursaryRepository(db);
    const all = await bursary.ledger({});
    // More rows than one slice (500), so the pieces must join in the ledger's order.
    expect(all.length).toBeGreaterThan(500);
    expect(await bursary.ledgerInSlices({})).toEqual(all);
    expect(await bursary.ledgerInSlices({ from: '2025-10-05', to: '2025-10-20' })).toEqual(
      await bursary.ledger({ from: '2025-10-05', to: '2025-10-20' }),
    );
    const people = new PeopleRepository(db);
    const students = await people.listStudents({ status: 'active' });
    expect(students.length).toBeGreaterThan(500);
    expect(await people.listStudentsInSlices({ status: 'active' })).toEqual(students);
    expect(await people.listStudentsInSlices({ status: 'active', arm: 'JSS 1B' })).toEqual(
      await people.listStudents({ status: 'active', arm: 'JSS 1B' }),
    );
    const rows = Array.from({ length: 1000 }, (_, i) => [`=cmd${i}`, i, `a "quoted", line\nbreak ${i}`, null]);
    expect(await toCsvInSlices(rows, ['a', 'b', 'c', 'd'])).toBe(toCsv(rows, ['a', 'b', 'c', 'd']));
    expect(await toCsvInSlices(rows)).toBe(toCsv(rows));
    expect(await toCsvInSlices([], ['a'])).toBe(toCsv([], ['a']));
  });
});
