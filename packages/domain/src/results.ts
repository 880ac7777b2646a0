/**
 * The results' response shapes (sessions, results, scales, publications, report card subjects,
 * broadsheets, history), and the ranking rules re-exported. Messages are in result-messages.ts,
 * the field rules and schemas in result-schemas.ts; the response shapes are zod schemas in
 * result-responses.ts and report-card-responses.ts (types re-exported here).
 */
export type {
  Broadsheet,
  BroadsheetClass,
  BroadsheetRow,
  GradingScalePreview,
  GradingScaleResponse,
  Publication,
  Result,
  ResultAuditEntry,
  ResultStudent,
  ResultTermStatus,
} from './result-responses';
export type { ReportCardSubject } from './report-card-responses';

export * from './ranking';

// ---------- response shapes ----------

export interface AcademicSession {
  id: number;
  name: string;
  is_current: boolean;
}
