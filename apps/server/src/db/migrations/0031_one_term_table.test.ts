import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ReportTerm } from '@portal/domain';
import { migrateToLatest } from '../index';
import { createSession, describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/calendar/calendar.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The tables this migration changes: their values are checked one by one below. */
const CHANGED = ['school_terms', 'report_terms'];

interface ReportTermRow {
  session_id: number;
  term: string;
  next_term_begins: string | null;
  times_opened: number | null;
  updated_by: number | null;
  updated_at: string;
}

describe('migration 0031 on a database made by the previous release (SQLite fixture)', () => {
  it("keeps every row of every other table and puts each report_terms value on its term's row", async () => {
    const handle = upgrade.databaseFromFixture('release-0019', cleanups);
    const kept = upgrade.RELEASE_0019_TABLES.filter((t) => !CHANGED.includes(t));
    const before = await upgrade.tableRows(handle, kept);
    const reportTerms = (await sql<ReportTermRow>`select * from report_terms`.execute(handle.db)).rows;
    const terms = (await sql<Record<string, unknown>>`select * from school_terms`.execute(handle.db)).rows;
    expect(reportTerms.length).toBeGreaterThan(0);
    await migrateToLatest(handle);

    expect(upgrade.withoutRecomputedKeys(await upgrade.tableRowsAsBefore(handle, before))).toEqual(upgrade.withoutRecomputedKeys(before));
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'report_terms'`.execute(
      handle.db,
    );
    expect(tables.rows).toEqual([]);
    // The term rows keep their dates and author; each gains its card fields.
    const after = await handle.db.selectFrom('school_terms').selectAll().execute();
    expect(after.length).toBe(new Set([...terms, ...reportTerms].map((t) => `${String(t.session_id)}/${String(t.term)}`)).size);
    for (const t of terms) {
      const row = after.find((a) => a.session_id === t.session_id && a.term === t.term);
      expect(row).toMatchObject(t);
    }
    for (const r of reportTerms) {
      const row = after.find((a) => a.session_id === r.session_id && a.term === r.term);
      expect(row).toMatchObject({ next_term_begins: r.next_term_begins, times_opened: r.times_opened });
    }
  });
});

describeEachDatabase("migration 0031: report_terms merges into the term's row", (dialect) => {
  it('copies every value, makes an undated row for a term with no dates, and the card sheet reads them', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0028_idempotency_keys', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const other = await createSession(handle.db, '2024/2025', false);
    const at = '2025-09-01T08:00:00.000Z';
    await sql`insert into school_terms (session_id, term, starts_on, ends_on, updated_by, updated_at) values
      (${session.id}, '1st', '2025-09-15', '2025-12-19', null, ${at}),
      (${session.id}, '2nd', '2026-01-12', '2026-04-02', null, ${at})`.execute(handle.db);
    await sql`insert into report_terms (session_id, term, next_term_begins, times_opened, updated_by, updated_at) values
      (${session.id}, '1st', '2026-01-12', 118, null, '2025-10-01T00:00:00.000Z'),
      (${session.id}, '3rd', '2026-09-14', null, null, '2025-10-02T00:00:00.000Z'),
      (${other.id}, '3rd', null, 97, null, '2025-07-01T00:00:00.000Z')`.execute(handle.db);
    await migrateToLatest(handle);

    const rows = await handle.db
      .selectFrom('school_terms')
      .select(['session_id', 'term', 'starts_on', 'ends_on', 'next_term_begins', 'times_opened', 'updated_at'])
      .orderBy('session_id')
      .orderBy('term')
      .execute();
    const bySession = (id: number) => rows.filter((r) => Number(r.session_id) === id).map(({ session_id: _, ...r }) => r);
    expect(bySession(session.id)).toEqual([
      { term: '1st', starts_on: '2025-09-15', ends_on: '2025-12-19', next_term_begins: '2026-01-12', times_opened: 118, updated_at: at },
      { term: '2nd', starts_on: '2026-01-12', ends_on: '2026-04-02', next_term_begins: null, times_opened: null, updated_at: at },
      {
        term: '3rd',
        starts_on: null,
        ends_on: null,
        next_term_begins: '2026-09-14',
        times_opened: null,
        updated_at: '2025-10-02T00:00:00.000Z',
      },
    ]);
    expect(bySession(other.id)).toEqual([
      { term: '3rd', starts_on: null, ends_on: null, next_term_begins: null, times_opened: 97, updated_at: '2025-07-01T00:00:00.000Z' },
    ]);

    // The sheet's terms read the merged rows, and saving one keeps the term's dates.
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const sheet = await app.inject({ method: 'GET', url: `/api/report-terms/?session_id=${session.id}`, headers: auth });
    expect(sheet.statusCode, sheet.body).toBe(200);
    expect(sheet.json<ReportTerm[]>()).toEqual([
      { session_id: session.id, term: '1st', next_term_begins: '2026-01-12', times_opened: 118 },
      { session_id: session.id, term: '2nd', next_term_begins: null, times_opened: null },
      { session_id: session.id, term: '3rd', next_term_begins: '2026-09-14', times_opened: null },
    ]);
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/report-terms/',
      headers: auth,
      payload: { session_id: session.id, term: '2nd', next_term_begins: '2026-04-27', times_opened: 50 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const second = await handle.db
      .selectFrom('school_terms')
      .select(['starts_on', 'ends_on', 'next_term_begins', 'times_opened'])
      .where('session_id', '=', session.id)
      .where('term', '=', '2nd')
      .executeTakeFirstOrThrow();
    expect(second).toEqual({ starts_on: '2026-01-12', ends_on: '2026-04-02', next_term_begins: '2026-04-27', times_opened: 50 });
  });
});
