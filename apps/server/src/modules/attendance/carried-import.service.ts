import {
  ATTENDANCE_MESSAGES,
  CARRIED_MAX_ROWS,
  personName,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  type CarriedImport,
  type CarriedImportPreview,
  type Term,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { badRequest } from '../../http/errors';
import { csvHeaderIndex, csvStudentFinder, readCsvRecords, type CsvRecord } from '../../lib/csv';
import type { SessionsService } from '../calendar/sessions.service';
import type { AttendanceRepository } from './attendance.repository';
import type { Actor } from './attendance.service';

type CsvError = CarriedImportPreview['errors'][number];
const COLUMNS = ['admission_number', 'days_present', 'days_absent'] as const;

/** Reads the carried-in totals file (`readCsvRecords`, as the score import): records, or the file's error. */
export function readCarriedCsv(csv: string): { records: CsvRecord[] } | { error: CsvError } {
  return readCsvRecords(csv, {
    maxRows: CARRIED_MAX_ROWS,
    messages: { empty: ATTENDANCE_MESSAGES.csvEmpty, unreadable: ATTENDANCE_MESSAGES.csvUnreadable, tooBig: ATTENDANCE_MESSAGES.csvTooBig },
  });
}

/** A whole number of days from 0 to 200, or null. */
function days(cell: string): number | null {
  if (!/^\d{1,3}$/.test(cell)) return null;
  const n = Number(cell);
  return n <= 200 ? n : null;
}

/**
 * Term totals carried in from paper registers: a dry run previews (200, errors listed), applying
 * writes all or nothing; applying a file with errors is a 400 carrying the preview, as the score import.
 */
export class CarriedImportService {
  constructor(
    private readonly repo: AttendanceRepository,
    private readonly sessions: SessionsService,
    /** The term's times opened as the card counts it: the same bound as totals typed on the comment sheet. */
    private readonly timesOpened: (sessionId: number, term: Term) => Promise<number | null>,
  ) {}

  async import(actor: Actor, body: CarriedImport): Promise<{ status: 200 | 400; preview: CarriedImportPreview }> {
    if (!(await this.sessions.byId(body.session_id))) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    const read = readCarriedCsv(body.csv);
    const rows: CarriedImportPreview['rows'] = [];
    const errors: CsvError[] = [];
    const done = () => ({
      status: body.dry_run || !errors.length ? (200 as const) : (400 as const),
      preview: { rows, errors, applied: false },
    });
    if ('error' in read) {
      errors.push(read.error);
      return done();
    }
    const [header, ...data] = read.records;
    const index = csvHeaderIndex(header!.cells);
    if (COLUMNS.some((c) => !index.has(c))) {
      errors.push({ line: header!.line, column: null, message: ATTENDANCE_MESSAGES.csvHeader });
      return done();
    }
    if (!data.length) {
      errors.push({ line: header!.line, column: null, message: ATTENDANCE_MESSAGES.csvEmpty });
      return done();
    }
    const cell = (cells: string[], c: (typeof COLUMNS)[number]) => (cells[index.get(c)!] ?? '').trim();
    const numbers = [...new Set(data.map((r) => cell(r.cells, 'admission_number').toUpperCase()).filter(Boolean))];
    const students = await this.repo.studentsByAdmission(numbers);
    const studentOf = csvStudentFinder(students, {
      unknown: ATTENDANCE_MESSAGES.csvUnknownStudent,
      duplicate: ATTENDANCE_MESSAGES.csvDuplicate,
    });
    const [carriedRows, opened] = await Promise.all([
      this.repo.carried(
        body.session_id,
        body.term,
        students.map((s) => s.id),
      ),
      this.timesOpened(body.session_id, body.term),
    ]);
    const stored = new Map(carriedRows.map((c) => [c.student_id, c]));
    const writes: { student_id: number; days_present: number; days_absent: number }[] = [];
    for (const rec of data) {
      const found = studentOf(cell(rec.cells, 'admission_number'));
      if ('error' in found) {
        errors.push({ line: rec.line, column: 'admission_number', message: found.error });
        continue;
      }
      const { student } = found;
      const present = days(cell(rec.cells, 'days_present'));
      const absent = days(cell(rec.cells, 'days_absent'));
      if (present === null || absent === null) {
        errors.push({ line: rec.line, column: present === null ? 'days_present' : 'days_absent', message: ATTENDANCE_MESSAGES.csvDays });
        continue;
      }
      // The rule of typed totals: present and absent together within the times school opened.
      if (opened !== null && present + absent > opened) {
        errors.push({ line: rec.line, column: 'days_present', message: REPORT_MESSAGES.attendanceOverOpened(opened) });
        continue;
      }
      const before = stored.get(student.id);
      const change = !before ? 'new' : before.days_present === present && before.days_absent === absent ? 'same' : 'update';
      rows.push({
        line: rec.line,
        admission_number: student.admission_number,
        name: personName(student),
        days_present: present,
        days_absent: absent,
        change,
      });
      if (change !== 'same') writes.push({ student_id: student.id, days_present: present, days_absent: absent });
    }
    if (body.dry_run || errors.length) return done();
    await this.repo.transaction(async (trx) => {
      await this.repo.upsertCarried(trx, body.session_id, body.term, writes, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'import',
        entity: 'attendance_carried',
        entityId: `${body.session_id}/${body.term}`,
        after: { rows: rows.filter((r) => r.change !== 'same').map((r) => [r.admission_number, r.days_present, r.days_absent]) },
      });
    });
    return { status: 200, preview: { rows, errors, applied: true } };
  }
}

/** The term's times opened as the card counts it: results' rule, handed in by the composition root (composition.ts). */
export type TimesOpened = (sessionId: number, term: Term) => Promise<number | null>;
