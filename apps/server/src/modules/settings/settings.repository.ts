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
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
    if (!row) return DEFAULT_SCHOOL_SETTINGS;
    const parsed = schoolSettingsSchema.safeParse({ ...DEFAULT_SCHOOL_SETTINGS, ...(JSON.parse(row.value) as object) });
    return parsed.success ? parsed.data : DEFAULT_SCHOOL_SETTINGS;
  }

  async put(settings: SchoolSettings): Promise<void> {
    const value = JSON.stringify(settings);
    await this.db
      .insertInto('settings')
      .values({ key: KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** The report card settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  async getReport(): Promise<ReportSettings> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', REPORT_KEY).executeTakeFirst();
    if (!row) return DEFAULT_REPORT_SETTINGS;
    const parsed = reportSettingsSchema.safeParse({ ...DEFAULT_REPORT_SETTINGS, ...(JSON.parse(row.value) as object) });
    // Stored traits always carry their ids (the service assigns them on save).
    return parsed.success ? (parsed.data as ReportSettings) : DEFAULT_REPORT_SETTINGS;
  }

  async putReport(settings: ReportSettings): Promise<void> {
    const value = JSON.stringify(settings);
    await this.db
      .insertInto('settings')
      .values({ key: REPORT_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** The attendance settings as stored, or the defaults; a stored value that no longer parses falls back to them. */
  async getAttendance(): Promise<AttendanceSettings> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', ATTENDANCE_KEY).executeTakeFirst();
    if (!row) return DEFAULT_ATTENDANCE_SETTINGS;
    const parsed = attendanceSettingsSchema.safeParse({ ...DEFAULT_ATTENDANCE_SETTINGS, ...(JSON.parse(row.value) as object) });
    return parsed.success ? parsed.data : DEFAULT_ATTENDANCE_SETTINGS;
  }

  async putAttendance(settings: AttendanceSettings): Promise<void> {
    const value = JSON.stringify(settings);
    await this.db
      .insertInto('settings')
      .values({ key: ATTENDANCE_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** The admission page's text as stored, or the default text; a stored value that no longer parses falls back to it. */
  async getAdmission(): Promise<AdmissionPage> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', ADMISSION_KEY).executeTakeFirst();
    if (!row) return DEFAULT_ADMISSION_PAGE;
    const parsed = admissionPageSchema.safeParse({ ...DEFAULT_ADMISSION_PAGE, ...(JSON.parse(row.value) as object) });
    return parsed.success ? parsed.data : DEFAULT_ADMISSION_PAGE;
  }

  async putAdmission(page: AdmissionPage): Promise<void> {
    const value = JSON.stringify(page);
    await this.db
      .insertInto('settings')
      .values({ key: ADMISSION_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  async setupDismissed(): Promise<boolean> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', SETUP_DISMISSED_KEY).executeTakeFirst();
    return row?.value === 'true';
  }

  async dismissSetup(): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key: SETUP_DISMISSED_KEY, value: 'true' })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: 'true' }))
      .execute();
  }
}
