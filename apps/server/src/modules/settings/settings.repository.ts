import type { Conn } from '../../db/index';
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

const KEY = 'school';
/** The report card's settings: rating lists and labels, comment bank, promotion rule, images. */
const REPORT_KEY = 'report_cards';
/** The attendance register's settings: registers a day, Saturday classes. */
const ATTENDANCE_KEY = 'attendance';
/** The portal's own admission page: five plain-text sections. */
const ADMISSION_KEY = 'admission_page';
/** The admin hid the first-run checklist. */
const SETUP_DISMISSED_KEY = 'setup_checklist_dismissed';

export class SettingsRepository {
  constructor(private readonly db: Conn) {}

  async get(): Promise<SchoolSettings> {
    return this.readJson(KEY, DEFAULT_SCHOOL_SETTINGS, schoolSettingsSchema);
  }

  async put(settings: SchoolSettings): Promise<void> {
    await this.write(KEY, JSON.stringify(settings));
  }

  /** The report card settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  async getReport(): Promise<ReportSettings> {
    // Stored traits always carry their ids (the service assigns them on save).
    return this.readJson(REPORT_KEY, DEFAULT_REPORT_SETTINGS, reportSettingsSchema) as Promise<ReportSettings>;
  }

  async putReport(settings: ReportSettings): Promise<void> {
    await this.write(REPORT_KEY, JSON.stringify(settings));
  }

  /** The attendance settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  async getAttendance(): Promise<AttendanceSettings> {
    return this.readJson(ATTENDANCE_KEY, DEFAULT_ATTENDANCE_SETTINGS, attendanceSettingsSchema);
  }

  async putAttendance(settings: AttendanceSettings): Promise<void> {
    await this.write(ATTENDANCE_KEY, JSON.stringify(settings));
  }

  /** The admission page's text as stored, or the default text; a stored value that no longer parses falls back to it. */
  async getAdmission(): Promise<AdmissionPage> {
    return this.readJson(ADMISSION_KEY, DEFAULT_ADMISSION_PAGE, admissionPageSchema);
  }

  async putAdmission(page: AdmissionPage): Promise<void> {
    await this.write(ADMISSION_KEY, JSON.stringify(page));
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
  private async readJson<T>(
    key: string,
    defaults: T,
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  ): Promise<T> {
    const value = await this.read(key);
    if (value === undefined) return defaults;
    const parsed = schema.safeParse({ ...defaults, ...(JSON.parse(value) as object) });
    return parsed.success ? parsed.data : defaults;
  }
}
