/**
 * Preload that records every SQL text better-sqlite3 prepares, for bench/tools/explain.ts:
 *
 *   SQL_LOG=/tmp/sql.log NODE_OPTIONS="--import ./bench/tools/sql-log.mjs" npx vitest run apps/server
 *
 * Each distinct statement is appended once per process (records separated by a NUL line).
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = process.env.SQL_LOG;
if (out) {
  const SQLite = createRequire(import.meta.url)('better-sqlite3');
  const seen = new Set();
  const original = SQLite.prototype.prepare;
  SQLite.prototype.prepare = function prepare(sql) {
    if (!seen.has(sql)) {
      seen.add(sql);
      appendFileSync(out, `${sql}\n\u0000\n`);
    }
    return original.call(this, sql);
  };
}
