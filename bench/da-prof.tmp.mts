import { Kysely, SqliteDialect, PostgresDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { buildServices } from '/work/wt/dash-admin/apps/server/src/composition.ts';
import { loadConfig } from '/work/wt/dash-admin/apps/server/src/config.ts';

async function main() {
const url = process.argv[2] ?? 'bench/data/school-1500.db';
const times: { sql: string; ms: number }[] = [];
const log = (e: any) => { if (e.level === 'query') times.push({ sql: e.query.sql.replace(/\s+/g, ' ').slice(0, 160), ms: e.queryDurationMillis }); };
const db: any = url.startsWith('postgres')
  ? new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }), log })
  : new Kysely({ dialect: new SqliteDialect({ database: new SQLite(url) }), log });
const config = loadConfig({ ...process.env, JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'sqlite::memory:' } as any);
const s: any = buildServices({ db, dialect: url.startsWith('postgres') ? 'postgres' : 'sqlite', config, log: pino({ level: 'silent' }) as any });
const d = s.adminDashboard;
const sess = (await db.selectFrom('academic_sessions').select(['id', 'name']).where('is_current', '=', 1).executeTakeFirst());
const admin = { id: 1, role: 'admin', email: 'a', mustChangePassword: false, familyId: '', capable: true };
for (const [name, run] of [
  ['attendance', () => d.attendance('2025-10-15')],
  ['scoreEntry', () => d.scoreEntry(sess.id, '1st')],
  ['reportCards', () => d.reportCards(admin, sess.id, '1st')],
  ['fees', () => d.fees(sess.id, '1st', '2025-10-15')],
  ['grades', () => d.grades(sess.id)],
  ['accounts', () => d.accounts(admin)],
  ['all', () => d.dashboard(admin, { session_id: sess.id, term: '1st' })],
] as const) {
  times.length = 0;
  await run();
  let ms = 1e9; for (let i = 0; i < 3; i++) { const t0 = performance.now(); await run(); ms = Math.min(ms, performance.now() - t0); }
  console.log(name.padEnd(12), ms.toFixed(0), 'ms; slowest:', [...times.slice(-times.length/3)].sort((a, b) => b.ms - a.ms).slice(0, 3).map((t) => `${t.ms.toFixed(0)}ms ${t.sql}`).join(' | '));
}
await db.destroy();
}
void main();
