/**
 * The settings module's own table beyond the base `settings` (migration 0047, decision 058): the
 * report card settings a session ended with. The current session's are `settings.report_cards`.
 */
export interface SessionReportSettingsTable {
  session_id: number;
  /** ReportSettings as JSON, read over the defaults like the live row. */
  value: string;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    session_report_settings: SessionReportSettingsTable;
  }
}
