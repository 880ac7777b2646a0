import type { Kysely, Transaction } from 'kysely';
import { levelOfClass, CLASSES, type GradeBand, type Level } from '@portal/domain';
import type { Database } from '../../db/schema';
import { nowIso, type DB } from '../../db/index';
import './results.tables';

type Conn = Kysely<Database> | Transaction<Database>;

/** SQL of grading scales and the set-based regrade of a level's results. */
export class GradingRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /**
   * The level's scale, read inside a result-saving transaction. On PostgreSQL the row is share-locked,
   * so a concurrent scale change (which updates that row, then regrades) waits for the save, or the
   * save waits and then grades with the new scale: a grade never mixes old and new bands. SQLite
   * transactions are serialized already.
   */
  async lockedBands(trx: Transaction<Database>, level: Level): Promise<string | undefined> {
    const row = await trx
      .selectFrom('grading_scales')
      .select('bands')
      .where('level', '=', level)
      .$if(this.dialect === 'postgres', (q) => q.forShare())
      .executeTakeFirst();
    return row?.bands;
  }

  all(conn: Conn = this.db) {
    return conn.selectFrom('grading_scales').select(['level', 'bands', 'updated_at', 'updated_by']).execute();
  }

  get(level: Level, conn: Conn = this.db) {
    return conn
      .selectFrom('grading_scales')
      .select(['level', 'bands', 'updated_at', 'updated_by'])
      .where('level', '=', level)
      .executeTakeFirst();
  }

  async put(conn: Conn, level: Level, bands: GradeBand[], actor: number): Promise<void> {
    const values = { level, bands: JSON.stringify(bands), updated_by: actor, updated_at: nowIso() };
    await conn
      .insertInto('grading_scales')
      .values(values)
      .onConflict((oc) => oc.column('level').doUpdateSet({ bands: values.bands, updated_by: actor, updated_at: values.updated_at }))
      .execute();
  }

  /** Sets `grade` on every result of the level's classes whose score is in [from, below). Returns rows changed. */
  async regradeRange(conn: Conn, level: Level, grade: string, from: number | null, below: number | null): Promise<number> {
    const classes = CLASSES.filter((c) => levelOfClass(c) === level);
    const res = await conn
      .updateTable('results')
      .set({ grade })
      .where('student_class', 'in', classes)
      .where('grade', '!=', grade)
      .$if(from !== null, (q) => q.where('score', '>=', from!))
      .$if(below !== null, (q) => q.where('score', '<', below!))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
