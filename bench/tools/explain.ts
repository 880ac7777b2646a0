/**
 * Runs EXPLAIN QUERY PLAN for every statement of a SQL log (bench/tools/sql-log.mjs) against a
 * generated school and lists the statements that scan a whole table of a growing kind (users,
 * students, staff, results, payments, audit…) instead of using an index.
 *
 *   node --import tsx bench/tools/explain.ts /tmp/sql.log [bench/data/school-1500.db]
 */
import { readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';

const [logFile, dbFile = 'bench/data/school-1500.db'] = process.argv.slice(2);
if (!logFile) throw new Error('usage: explain.ts <sql.log> [school.db]');
const db = new SQLite(dbFile, { readonly: true });
const BIG = /\b(users|students|staff|results|payments|result_audit|audit_log|refresh_tokens|attendance|login_throttle)\b/;
const statements = [
  ...new Set(
    readFileSync(logFile, 'utf8')
      .split('\n\u0000\n')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
let flagged = 0;
for (const sql of statements) {
  if (!/^\s*(select|update|delete|insert|with)/i.test(sql) || /sqlite_master|pragma|kysely_migration/i.test(sql)) continue;
  let plan: { detail: string }[];
  try {
    plan = db.prepare(`explain query plan ${sql}`).all(...new Array<null>((sql.match(/\?/g) ?? []).length).fill(null)) as {
      detail: string;
    }[];
  } catch {
    continue; // a table this dataset lacks, or DDL
  }
  const scans = plan.map((p) => p.detail).filter((d) => /^SCAN /.test(d) && !/COVERING INDEX|USING INDEX/.test(d) && BIG.test(d));
  if (scans.length) {
    flagged++;
    process.stdout.write(`\n${scans.join('; ')}\n  ${sql.replace(/\s+/g, ' ').slice(0, 400)}\n`);
  }
}
process.stdout.write(`\n${statements.length} distinct statements, ${flagged} scan a growing table\n`);
