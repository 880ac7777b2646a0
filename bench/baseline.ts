/**
 * The baseline of every scenario: a bare Fastify with better-sqlite3 (or pg) that answers the same
 * URLs by running the SAME SQL the portal ran for them (captured from the real endpoint by
 * bench/run.ts), with no validation, no auth, no business rules, no response schema: the practical
 * limit of this stack on this machine. Started by bench/run.ts as its own process:
 *
 *   BASELINE_SQL=<file.json> DATABASE_URL=<url> PORT=<port> node --import tsx bench/baseline.ts
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { verify } from '@node-rs/argon2';
import { randomBytes, createHash } from 'node:crypto';
import { memoize } from './common';

export interface CapturedQuery {
  sql: string;
  parameters: unknown[];
}

/** What bench/run.ts hands over: for each `METHOD url`, the statements the portal executed. */
export interface BaselinePlan {
  routes: Record<string, CapturedQuery[]>;
  /** Sign-in: look the account up, verify the argon2id hash, store a refresh token (what a login costs). */
  signIn?: { url: string; email: string };
  /** Bulk saves: one transaction of upserts, like the portal's (statements replayed in a transaction). */
  transactional: string[];
  /**
   * Writes whose first parameter (the student) changes on every request, as the portal's saves
   * rotate over a class: otherwise every request would wait for the same rows' locks.
   */
  rotateStudent?: Record<string, number[]>;
}

interface Runner {
  run(queries: CapturedQuery[], transactional: boolean): Promise<unknown[]>;
  one(sql: string, params: unknown[]): Promise<Record<string, unknown> | undefined>;
}

function sqliteRunner(file: string): Runner {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const prep = memoize((sql: string) => db.prepare(sql));
  const exec = (qs: CapturedQuery[]) =>
    qs.map((q) => {
      const s = prep(q.sql);
      return s.reader ? s.all(...(q.parameters as never[])) : s.run(...(q.parameters as never[])).changes;
    });
  const inTx = db.transaction(exec);
  return {
    run: (qs, tx) => Promise.resolve(tx ? inTx.immediate(qs) : exec(qs)),
    one: (sql, params) => Promise.resolve(prep(sql).get(...(params as never[])) as Record<string, unknown> | undefined),
  };
}

function pgRunner(url: string): Runner {
  // The same planner setting as the portal's pool (apps/server/src/db/index.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c random_page_cost=1.1' });
  pool.on('error', () => undefined);
  return {
    async run(qs, tx) {
      if (!tx) {
        const out: unknown[] = [];
        for (const q of qs) out.push((await pool.query(q.sql, q.parameters)).rows);
        return out;
      }
      const c = await pool.connect();
      try {
        await c.query('begin');
        const out: unknown[] = [];
        for (const q of qs) out.push((await c.query(q.sql, q.parameters)).rows);
        await c.query('commit');
        return out;
      } catch (err) {
        await c.query('rollback');
        throw err;
      } finally {
        c.release();
      }
    },
    one: async (sql, params) => (await pool.query(sql, params)).rows[0] as Record<string, unknown> | undefined,
  };
}

async function main(): Promise<void> {
  const plan = JSON.parse(readFileSync(process.env.BASELINE_SQL!, 'utf8')) as BaselinePlan;
  const url = process.env.DATABASE_URL!;
  const isPg = /^postgres(ql)?:/.test(url);
  const runner = isPg ? pgRunner(url) : sqliteRunner(url.replace(/^sqlite:/, ''));
  /** The n-th placeholder of the dialect. */
  const p = (n: number) => (isPg ? `$${n}` : '?');
  const app = Fastify({ logger: false });

  if (plan.signIn) {
    const { url: loginUrl } = plan.signIn;
    app.post(loginUrl, async (request) => {
      const body = request.body as { email: string; password: string };
      const row = await runner.one(`select id, password_hash from users where email = ${p(1)}`, [body.email]);
      const ok = row ? await verify(String(row.password_hash), body.password) : false;
      if (!ok) return { status: 'error' };
      const token = randomBytes(32).toString('base64url');
      await runner.run(
        [
          {
            sql: `insert into refresh_tokens (user_id, family_id, token_hash, expires_at, created_at) values (${[1, 2, 3, 4, 5].map(p).join(', ')})`,
            parameters: [
              row!.id,
              randomBytes(8).toString('hex'),
              createHash('sha256').update(token).digest('hex'),
              new Date().toISOString(),
              new Date().toISOString(),
            ],
          },
        ],
        false,
      );
      return { status: 'success', data: { access: token, refresh: token } };
    });
  }

  const transactional = new Set(plan.transactional);
  let turn = 0;
  app.all('/*', async (request, reply) => {
    const key = `${request.method} ${request.url}`;
    let queries = plan.routes[key];
    if (!queries) return reply.status(404).send({ detail: `no captured SQL for ${key}` });
    const students = plan.rotateStudent?.[key];
    if (students?.length) {
      const student = students[turn++ % students.length];
      queries = queries.map((q) => (/^\s*insert/i.test(q.sql) ? { ...q, parameters: [student, ...q.parameters.slice(1)] } : q));
    }
    return runner.run(queries, transactional.has(key));
  });

  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`baseline listening on ${String(app.server.address() && (app.server.address() as { port: number }).port)}\n`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
