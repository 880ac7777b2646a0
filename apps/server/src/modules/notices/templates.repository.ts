import { Repository, type Conn } from '../../db/index';
import './templates.tables';

export interface StoredTemplate {
  kind: string;
  channel: string;
  subject: string | null;
  body: string;
  updated_at: string;
}

/** The school's edited notice templates and fee-reminder days (migration 0034). */
export class NoticeTemplatesRepository extends Repository {
  templates(conn: Conn = this.db): Promise<StoredTemplate[]> {
    return conn.selectFrom('notice_templates').select(['kind', 'channel', 'subject', 'body', 'updated_at']).execute();
  }

  async putTemplate(
    conn: Conn,
    rows: { kind: string; channel: string; subject: string | null; body: string }[],
    actor: number,
    at: string,
  ): Promise<void> {
    await conn
      .insertInto('notice_templates')
      .values(rows.map((r) => ({ ...r, updated_at: at, updated_by: actor })))
      .onConflict((oc) =>
        oc.columns(['kind', 'channel']).doUpdateSet((eb) => ({
          subject: eb.ref('excluded.subject'),
          body: eb.ref('excluded.body'),
          updated_at: eb.ref('excluded.updated_at'),
          updated_by: eb.ref('excluded.updated_by'),
        })),
      )
      .execute();
  }

  async reminderDays(conn: Conn = this.db): Promise<number[]> {
    const rows = await conn.selectFrom('notice_reminder_days').select('days').orderBy('days').execute();
    return rows.map((r) => Number(r.days));
  }

  async putReminderDays(conn: Conn, days: readonly number[], actor: number, at: string): Promise<void> {
    await conn.deleteFrom('notice_reminder_days').execute();
    if (days.length)
      await conn
        .insertInto('notice_reminder_days')
        .values(days.map((d) => ({ days: d, updated_at: at, updated_by: actor })))
        .execute();
  }
}
