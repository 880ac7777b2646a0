import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Indexes from the benchmarks (docs/performance.md). Every statement the API runs was put
 * through EXPLAIN QUERY PLAN on a generated school (bench/tools/explain.ts): all lookups of the
 * request paths already use an index; what is left is below.
 */
export const indexes: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    // The sign-in throttle prunes rows older than a day: without this it scans the whole table,
    // which grows with every address and account tried during a password-guessing attack.
    await db.schema.createIndex('login_throttle_window').on('login_throttle').column('window_start').execute();

    // Redundant indexes cost a write on every saved score and buy no lookup:
    // - results_class_term (session_id, term, student_class) is a prefix of the covering
    //   results_class_scores (session_id, term, student_class, student_id, subject, score);
    // - results_student (student_id, session_id, term) is a prefix of the unique constraint
    //   results_one_per_subject (student_id, session_id, term, subject).
    await db.schema.dropIndex('results_class_term').ifExists().execute();
    await db.schema.dropIndex('results_student').ifExists().execute();
  },
});
