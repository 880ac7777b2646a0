import { sql } from 'kysely';
import type { Conn } from '../../db/index';
import { cachedRead } from '../../db/reference-cache';
import { nowIso } from '../../db/index';
import './settings.tables';
import {
  admissionPageSchema,
  attendanceSettingsSchema,
  DEFAULT_ADMISSION_PAGE,
  DEFAULT_ATTENDANCE_SETTINGS,
  DEFAULT_REPORT_SETTINGS,
  DEFAULT_SCHOOL_SETTINGS,
  reportSettingsSchema,
  schoolSettingsSchema,
  type AdmissionPage,
  type AttendanceSettings,
  type ReportSettings,
  type SchoolSettings,
} from '@portal/domain';

/** One JSON settings row: its key, the defaults it starts from, and the schema it is read through. */
export interface JsonSetting<T> {
  key: string;
  defaults: T;
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } };
}

function jsonSetting<T>(key: string, defaults: T, schema: JsonSetting<T>['schema']): JsonSetting<T> {
  return { key, defaults, schema };
}

/** The school's name, contacts, logo, time zone and formats. */
export const SCHOOL_SETTING = jsonSetting<SchoolSettings>('school', DEFAULT_SCHOOL_SETTINGS, schoolSettingsSchema);
/** The report card's settings: rating lists and labels, comment bank, promotion rule, images. Stored traits always carry their ids (the service assigns them on save). */
export const REPORT_SETTING = jsonSetting<ReportSettings>(
  'report_cards',
  DEFAULT_REPORT_SETTINGS,
  reportSettingsSchema as JsonSetting<ReportSettings>['schema'],
);
/** The attendance register's settings: registers a day, Saturday classes. */
export const ATTENDANCE_SETTING = jsonSetting<AttendanceSettings>('attendance', DEFAULT_ATTENDANCE_SETTINGS, attendanceSettingsSchema);
/** The portal's own admission page: five plain-text sections. */
export const ADMISSION_SETTING = jsonSetting<AdmissionPage>('admission_page', DEFAULT_ADMISSION_PAGE, admissionPageSchema);
/** The admin hid the first-run checklist. */
const SETUP_DISMISSED_KEY = 'setup_checklist_dismissed';

/** A stored JSON value over the setting's defaults (a field added since is filled in); the defaults when it no longer parses. */
function parseOver<T>({ defaults, schema }: JsonSetting<T>, value: string): T {
  const parsed = schema.safeParse({ ...defaults, ...(JSON.parse(value) as object) });
  return parsed.success ? parsed.data : defaults;
}

export class SettingsRepository {
  constructor(private readonly db: Conn) {}

  get(): Promise<SchoolSettings> {
    return this.readJson(SCHOOL_SETTING);
  }

  /** The report card settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  getReport(): Promise<ReportSettings> {
    return this.readJson(REPORT_SETTING);
  }

  putReport(settings: ReportSettings): Promise<void> {
    return this.writeJson(REPORT_SETTING, settings);
  }

  /**
   * The report card settings of session `sessionId`'s cards (decision 058): the ones it ended with,
   * read over the defaults as the live row is; today's when it has none (the current session, or one
   * not yet begun). One statement: the card reads it on every request the cache does not answer.
   */
  reportOf(sessionId: number): Promise<ReportSettings> {
    return cachedRead(this.db, `report-of:${sessionId}`, ['settings', 'session_report_settings'], async () => {
      const rows = await this.db
        .selectFrom('session_report_settings')
        .select([sql<string>`'session'`.as('source'), 'value'])
        .where('session_id', '=', sessionId)
        .unionAll(
          this.db
            .selectFrom('settings')
            .select([sql<string>`'today'`.as('source'), 'value'])
            .where('key', '=', REPORT_SETTING.key),
        )
        .execute();
      const value = (rows.find((r) => r.source === 'session') ?? rows[0])?.value;
      return value === undefined ? REPORT_SETTING.defaults : parseOver(REPORT_SETTING, value);
    });
  }

  /** The report card settings session `sessionId` ended with, or undefined when it has none. */
  async sessionReport(sessionId: number): Promise<ReportSettings | undefined> {
    const row = await this.db.selectFrom('session_report_settings').select('value').where('session_id', '=', sessionId).executeTakeFirst();
    return row ? parseOver(REPORT_SETTING, row.value) : undefined;
  }

  /** Every session's kept settings (a handful: one per past session), for a rename that reaches them all. */
  async sessionReports(): Promise<{ session_id: number; settings: ReportSettings }[]> {
    const rows = await this.db.selectFrom('session_report_settings').select(['session_id', 'value']).orderBy('session_id').execute();
    return rows.map((r) => ({ session_id: r.session_id, settings: parseOver(REPORT_SETTING, r.value) }));
  }

  /** Keeps `settings` as the ones session `sessionId` ended with (replacing any kept before). */
  async putSessionReport(sessionId: number, settings: ReportSettings): Promise<void> {
    const set = { value: JSON.stringify(settings), updated_at: nowIso() };
    await this.db
      .insertInto('session_report_settings')
      .values({ session_id: sessionId, ...set })
      .onConflict((oc) => oc.column('session_id').doUpdateSet(set))
      .execute();
  }

  async deleteSessionReport(sessionId: number): Promise<void> {
    await this.db.deleteFrom('session_report_settings').where('session_id', '=', sessionId).execute();
  }

  /** The attendance settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  getAttendance(): Promise<AttendanceSettings> {
    return this.readJson(ATTENDANCE_SETTING);
  }

  /** The admission page's text as stored, or the default text; a stored value that no longer parses falls back to it. */
  getAdmission(): Promise<AdmissionPage> {
    return this.readJson(ADMISSION_SETTING);
  }

  async setupDismissed(): Promise<boolean> {
    return (await this.read(SETUP_DISMISSED_KEY)) === 'true';
  }

  async dismissSetup(): Promise<void> {
    await this.write(SETUP_DISMISSED_KEY, 'true');
  }

  private async read(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Inserts or replaces one key's value. */
  private async write(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /**
   * A JSON settings object: the stored value over the defaults (so a field added since is filled in),
   * or the defaults when nothing is stored or what is stored no longer parses.
   */
  readJson<T>(setting: JsonSetting<T>): Promise<T> {
    return cachedRead(this.db, `setting:${setting.key}`, ['settings'], () => this.parseJson(setting));
  }

  private async parseJson<T>(setting: JsonSetting<T>): Promise<T> {
    const value = await this.read(setting.key);
    return value === undefined ? setting.defaults : parseOver(setting, value);
  }

  /** Replaces a JSON settings object. */
  async writeJson<T>(setting: JsonSetting<T>, value: T): Promise<void> {
    await this.write(setting.key, JSON.stringify(value));
  }
}
