import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { ReportCard } from '@portal/domain';
import type { Database, DB } from '../../db/index';
import { TableMemo } from '../../db/table-memo';
import { BOOKKEEPING_COLUMNS, UNSHOWN_TABLES, writtenTables } from '../../db/table-changes';
import {
  describeEachDatabase,
  secondInstance,
  servicesOver,
  signInAdmin,
  withSchool,
  withTestContext,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { loggingConnection } from '../../../test/statement-count';
import { PdfBytes } from './card-pdfs.service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A student's third-term Mathematics score written straight in SQL on `db` (as an import or a script would). */
const setMaths = (db: DB, studentId: number, sessionId: number, score: number) =>
  db
    .updateTable('results')
    .set({ score })
    .where('student_id', '=', studentId)
    .where('session_id', '=', sessionId)
    .where('term', '=', '3rd')
    .where('subject', '=', 'Mathematics')
    .execute();
const unshown = new Set<string>(UNSHOWN_TABLES);

/**
 * Reads until one read is answered from `memo` (at most a second): on PostgreSQL the notices of the
 * test's own seeding arrive after their commits and may drop the memo between two reads.
 */
async function readUntilHit<T>(memo: { hits: number }, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const hits = memo.hits;
    const answer = await read();
    if (memo.hits === hits + 1 || Date.now() > deadline) {
      expect(memo.hits).toBe(hits + 1);
      return answer;
    }
    await sleep(20);
  }
}

/**
 * Two reads in a row that are both memo hits: the first of them may come after a miss, since a change
 * notice of the set-up's own writes may still be on its way (PostgreSQL) and drop the memo once more.
 */
async function twoHitsInARow<T>(memo: { hits: number }, read: () => Promise<T>): Promise<[T, T]> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const hits = memo.hits;
    const a = await read();
    const b = await read();
    if (memo.hits === hits + 2 || Date.now() > deadline) {
      expect(memo.hits).toBe(hits + 2);
      return [a, b];
    }
    await sleep(20);
  }
}

describe('the table memo (decision 053)', () => {
  const memo = () => new TableMemo<{ n: number }>((t) => t !== 'refresh_tokens', 3);

  it('keeps an answer until a watched table is written, and only then', async () => {
    const m = memo();
    let loads = 0;
    const load = () => Promise.resolve({ n: ++loads });
    expect(await m.get('a', load)).toEqual({ n: 1 });
    expect(await m.get('a', load)).toEqual({ n: 1 });
    m.invalidate(['refresh_tokens']);
    expect(await m.get('a', load)).toEqual({ n: 1 });
    m.invalidate(['results']);
    expect(await m.get('a', load)).toEqual({ n: 2 });
    expect([m.hits, m.misses]).toEqual([2, 2]);
  });

  it('does not keep an answer that a write overtook (it may hold the old rows)', async () => {
    const m = memo();
    let release!: () => void;
    const slow = m.get('a', () => new Promise<{ n: number }>((r) => (release = () => r({ n: 1 }))));
    m.invalidate(['payments']);
    release();
    expect(await slow).toEqual({ n: 1 });
    expect(m.size).toBe(0);
  });

  it('computes every time while off, and stays off when configured so', async () => {
    const off = new TableMemo<{ n: number }>(() => true, 3, { enabled: false });
    off.setEnabled(true);
    expect(off.enabled).toBe(false);
    await off.get('a', () => Promise.resolve({ n: 1 }));
    expect(off.size).toBe(0);
    const m = memo();
    m.setEnabled(false);
    await m.get('a', () => Promise.resolve({ n: 1 }));
    expect(m.size).toBe(0);
  });

  it('is bounded (the oldest goes first) and shares answers no caller can change', async () => {
    const m = memo();
    for (const k of ['a', 'b', 'c', 'd']) await m.get(k, () => Promise.resolve({ n: 1 }));
    expect(m.size).toBe(3);
    const v = await m.get('d', () => Promise.resolve({ n: 9 }));
    expect(() => {
      v.n = 2;
    }).toThrow(TypeError);
  });

  it("hears a parent's sign-in bookkeeping as no change, and any other write to parents as one", () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: {} as never }) });
    expect(BOOKKEEPING_COLUMNS.parents).toEqual(['last_sign_in_at']);
    expect(writtenTables(db.updateTable('parents').set({ last_sign_in_at: 'x' }).toOperationNode())).toEqual([]);
    expect(writtenTables(db.updateTable('parents').set({ last_sign_in_at: 'x', name: 'y' }).toOperationNode())).toEqual(['parents']);
    expect(writtenTables(db.deleteFrom('parents').toOperationNode())).toEqual(['parents']);
    expect(writtenTables(db.updateTable('results').set({ score: 1 }).toOperationNode())).toEqual(['results']);
  });
});

describe('stored PDFs kept in the process by fingerprint (decision 053)', () => {
  it('keeps files up to its bytes, dropping the oldest first, and never one too large to share', () => {
    const kept = new PdfBytes(100);
    kept.put('a', Buffer.alloc(20));
    kept.put('b', Buffer.alloc(20));
    kept.put('huge', Buffer.alloc(30));
    expect(kept.get('huge')).toBeUndefined();
    for (const k of ['c', 'd', 'e']) kept.put(k, Buffer.alloc(20));
    expect(kept.size).toEqual({ files: 5, bytes: 100 });
    kept.put('f', Buffer.alloc(20));
    expect(kept.get('a')).toBeUndefined();
    expect(kept.get('f')?.length).toBe(20);
    expect(kept.size).toEqual({ files: 5, bytes: 100 });
  });
});

describeEachDatabase('report cards memoised per reader (decision 053)', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );
  /** Until this instance listens (PostgreSQL), the memo is off; the tests want it on. */
  const memoOn = async () => {
    for (let i = 0; i < 200 && !ctx.app.cardMemos.card.enabled; i++) await sleep(10);
    expect(ctx.app.cardMemos.card.enabled).toBe(true);
  };
  const cardUrl = (sessionId: number, admission: string, term = '3rd') =>
    `/api/report-card/?session_id=${sessionId}&term=${term}&admission_number=${encodeURIComponent(admission)}`;
  const mathsOf = (card: ReportCard) => card.subjects.find((s) => s.subject === 'Mathematics')!;

  it('answers a repeat read from the memo, and a score written after it at the next read', async () => {
    await memoOn();
    const { sessionId, student } = await rankedClass({ admin, publish: ['1st', '2nd', '3rd'] });
    const url = cardUrl(sessionId, student.admissionNumber);
    expect((await inject('GET', url, staff.auth)).statusCode).toBe(200);
    // A hit answers exactly what was memoised (its generated_at too).
    const [first, again] = await twoHitsInARow(ctx.app.cardMemos.card, () => inject('GET', url, staff.auth));
    expect(again.json<ReportCard>()).toEqual(first.json<ReportCard>());
    const before = mathsOf(first.json<ReportCard>());

    // Any writer: here SQL straight on the app's database.
    await setMaths(ctx.handle.db, student.id, sessionId, 11);
    const after = mathsOf((await inject('GET', url, staff.auth)).json<ReportCard>());
    expect(before.score).not.toBe(11);
    expect(after.score).toBe(11);
  });

  it('answers per reader: a card memoised for staff is never served to another student, and a refusal is never kept', async () => {
    await memoOn();
    const { sessionId, student, mates } = await rankedClass({ admin, publish: ['3rd'] });
    const mate = cardUrl(sessionId, mates[0]!.admissionNumber);
    expect((await inject('GET', mate, staff.auth)).statusCode).toBe(200);
    expect((await inject('GET', mate, staff.auth)).statusCode).toBe(200);
    const refused = await inject('GET', mate, student.auth);
    expect(refused.statusCode).toBe(403);
    expect((await inject('GET', mate, student.auth)).statusCode).toBe(403);
    // Unreleased: the student is refused after the admin read (and memoised) it, and served once it is released.
    const unreleased = cardUrl(sessionId, student.admissionNumber, '1st');
    expect((await inject('GET', unreleased, admin.auth)).statusCode).toBe(200);
    expect((await inject('GET', unreleased, student.auth)).statusCode).toBe(404);
    expect(
      (await inject('POST', '/api/results/publications/', admin.auth, { session_id: sessionId, term: '1st', student_class: 'JSS 1A' }))
        .statusCode,
    ).toBe(201);
    expect((await inject('GET', unreleased, student.auth)).statusCode).toBe(200);
  });

  it('reads no table the memo ignores (UNSHOWN_TABLES): every input of a card drops it when written', async () => {
    const { sessionId, cls, student } = await rankedClass({ admin, publish: ['3rd'] });
    const read = new Set<string>();
    const conn = loggingConnection(ctx, dialect, (text) => {
      for (const m of text.matchAll(/\b(?:from|join)\s+"?(\w+)"?/gi)) read.add(m[1]!);
    });
    const db = conn.db;
    try {
      // Services over a connection of their own: a cold reference cache, so the reference tables' reads show too.
      const svc = servicesOver(ctx, db);
      const q = { admission_number: student.admissionNumber, session_id: sessionId, term: '3rd' };
      for (const actor of [
        { id: staff.userId, role: 'staff' as const },
        { id: student.userId, role: 'student' as const },
        { id: admin.userId, role: 'admin' as const },
      ]) {
        await svc.reportCards.card(await svc.scope.actingFor(actor, q.admission_number), q);
      }
      await svc.reportCards.classCards({ id: staff.userId, role: 'staff' }, { session_id: sessionId, term: '3rd', student_class: cls });
      expect(read.has('results')).toBe(true);
      expect(read.has('settings')).toBe(true);
      expect([...read].filter((t) => unshown.has(t))).toEqual([]);
    } finally {
      await conn.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('card memo and PostgreSQL change notices (migration 0046)', () => {
  let ctx: TestContext;
  let admin: SignedIn;
  withTestContext('postgres', async (c) => {
    ctx = c;
    admin = await signInAdmin(ctx);
  });

  it('gives every table but UNSHOWN_TABLES a change notice, and parents one that leaves its bookkeeping out', async () => {
    const db = ctx.handle.db;
    const schema = ctx.handle.pgSchema!;
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = ${schema} and table_type = 'BASE TABLE'`.execute(db);
    const triggers = await sql<{ name: string; cols: string | null }>`
      select c.relname as name,
        (select string_agg(a.attname, ',' order by a.attname) from pg_attribute a
          where a.attrelid = c.oid and a.attnum = any (t.tgattr::int2[])) as cols
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and t.tgname = c.relname || '_changed'`.execute(db);
    const noticed = new Map(triggers.rows.map((r) => [r.name, r.cols]));
    const missing = tables.rows.map((r) => r.name).filter((t) => !unshown.has(t) && !noticed.has(t));
    expect(missing, 'a table a card may read has no change notice: add its trigger in a migration, or list it in UNSHOWN_TABLES').toEqual(
      [],
    );
    const parentColumns = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = ${schema} and table_name = 'parents'`.execute(db);
    const expected = parentColumns.rows
      .map((r) => r.name)
      .filter((c) => !BOOKKEEPING_COLUMNS.parents!.includes(c))
      .sort();
    expect(noticed.get('parents')?.split(',')).toEqual(expected);
  });

  it("sees a score changed on instance A on instance B within a second, B's memo warm before", async () => {
    const staffKit = resultsKit(
      () => ctx,
      () => admin,
    );
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
    const { sessionId, student } = await staffKit.rankedClass({ admin, publish: ['3rd'] });
    const b = await secondInstance(ctx);
    const appB = b.app;
    try {
      expect(appB.cardMemos.card.enabled).toBe(true);
      const url = `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`;
      const readB = async () => {
        const res = await appB.inject({ method: 'GET', url, headers: admin.auth });
        return res.json<ReportCard>().subjects.find((s) => s.subject === 'Mathematics')!.score;
      };
      const before = await readB();
      expect(await readUntilHit(appB.cardMemos.card, readB)).toBe(before);

      await setMaths(ctx.handle.db, student.id, sessionId, 12);
      const deadline = Date.now() + 1000;
      let seen = await readB();
      while (seen !== 12 && Date.now() < deadline) {
        await sleep(20);
        seen = await readB();
      }
      expect(before).not.toBe(12);
      expect(seen).toBe(12);
    } finally {
      await b.close();
    }
  });
});
