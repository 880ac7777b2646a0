// One file (about 400 lines): the students' and staff's CSV, both ways (reading in slices, the export
// columns, template, preview, all-or-nothing import) share its header aliases and row limits.
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';
import {
  FIELD_LABELS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  PEOPLE_MESSAGES,
  STAFF_CSV_COLUMNS,
  STAFF_CSV_REQUIRED,
  STUDENT_CSV_COLUMNS,
  STUDENT_CSV_REQUIRED,
  formatStaffId,
  personDatesAfter,
  staffCreateSchema,
  studentCreateSchema,
  type ImportIssue,
  type ImportPreview,
  type ImportResult,
  type StaffCreate,
  type StaffRecord,
  type StudentCreate,
  type StudentRecord,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { HttpError } from '../../http/errors';
import { writeAuditMany } from '../../db/audit';
import { toCsv, toCsvInSlices, type CsvValue } from '../../lib/csv';
import { allocate } from '../../db/counters';
import { faultPoint } from '../../lib/fault-points';
import { yieldToEventLoop } from '../../lib/yield';
import type { SchoolTime } from '../calendar/school-time.service';
import { nextAdmissionNumbers } from './admission-numbers';
import { generateOneTimePasswords } from './one-time-passwords';
import { isUniqueViolation } from '../../db/errors';
import type { PeopleRepository } from './people.repository';
import { STAFF_COUNTER, staffValues } from './staff.service';
import { studentValues, type SchoolClasses, type StudentParentLinks } from './students.service';

export type ImportKind = 'students' | 'staff';

interface Spec<T> {
  columns: readonly string[];
  required: readonly string[];
  parseRow(raw: Record<string, string>): { success: true; data: T } | { success: false; issues: { field: string; message: string }[] };
}

const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** Header aliases: the column key itself, its form label ("Father's name"), and a few common names. */
function headerMap(columns: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const c of columns) {
    m.set(normalizeHeader(c), c);
    const label = FIELD_LABELS[c];
    if (label) m.set(normalizeHeader(label), c);
  }
  const extra: Record<string, string> = {
    class: 'student_class',
    class_name: 'student_class',
    dob: 'date_of_birth',
    birth_date: 'date_of_birth',
    phone: 'phone_number',
    address: 'home_address',
    firstname: 'first_name',
    lastname: 'last_name',
    surname: 'last_name',
    email_address: 'email',
    fathers_phone_number: 'fathers_phone',
    mothers_phone_number: 'mothers_phone',
    position: 'designation',
  };
  for (const [k, v] of Object.entries(extra)) if (columns.includes(v)) m.set(k, v);
  return m;
}

function issuesOf(error: { issues: readonly { path: PropertyKey[]; message: string }[] }) {
  return error.issues.map((i) => ({ field: String(i.path[i.path.length - 1] ?? 'non_field_errors'), message: i.message }));
}

const STUDENT_SPEC: Spec<StudentCreate> = {
  columns: STUDENT_CSV_COLUMNS,
  required: STUDENT_CSV_REQUIRED,
  parseRow(raw) {
    const r = studentCreateSchema.safeParse(raw);
    return r.success ? { success: true, data: r.data } : { success: false, issues: issuesOf(r.error) };
  },
};

const STAFF_SPEC: Spec<StaffCreate> = {
  columns: STAFF_CSV_COLUMNS,
  required: STAFF_CSV_REQUIRED,
  parseRow(raw) {
    const { qualifications, employment_date, bank_account, tax_id, ...rest } = raw;
    const r = staffCreateSchema.safeParse({ ...rest, profile_data: { qualifications, employment_date, bank_account, tax_id } });
    return r.success ? { success: true, data: r.data } : { success: false, issues: issuesOf(r.error) };
  },
};

/** Characters of CSV handed to the parser at a time; rows checked between two yields. */
const CSV_SLICE = 64 * 1024;
const ROWS_PER_SLICE = 100;
/** No student or staff row comes near these: a longer row is an attack or the wrong file. */
const MAX_COLUMNS = 100;
const MAX_RECORD_CHARS = 64 * 1024;

/** Index of the first or last line break (\n or \r) in `s`, or -1. */
function lineBreak(s: string, which: 'first' | 'last'): number {
  const n = which === 'first' ? s.indexOf('\n') : s.lastIndexOf('\n');
  const r = which === 'first' ? s.indexOf('\r') : s.lastIndexOf('\r');
  if (n === -1 || r === -1) return Math.max(n, r);
  return which === 'first' ? Math.min(n, r) : Math.max(n, r);
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Streams the CSV through csv-parse a slice at a time, yielding to the event loop between slices
 * (one large file must not freeze the portal), and stops at the first limit it meets:
 * size (413), rows, columns or the length of one row (400). Nothing past that point is parsed.
 */
export async function readCsvRecords(csv: string): Promise<CsvRecord[]> {
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    trim: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const records: CsvRecord[] = [];
  let failure: HttpError | undefined;
  const fail = (status: number, message: string) => {
    failure ??= new HttpError(status, { non_field_errors: [message] });
  };
  parser.on('data', (r: CsvRecord) => {
    if (failure) return;
    if (r.record.length > MAX_COLUMNS) fail(400, PEOPLE_MESSAGES.importRowTooLong);
    // records holds the header and at most IMPORT_MAX_ROWS rows.
    else if (records.length > IMPORT_MAX_ROWS) fail(400, PEOPLE_MESSAGES.importTooManyRows);
    else records.push(r);
  });
  parser.on('error', (err: { code?: string }) =>
    fail(400, err.code === 'CSV_MAX_RECORD_SIZE' ? PEOPLE_MESSAGES.importRowTooLong : PEOPLE_MESSAGES.importUnreadable),
  );
  let bytes = 0;
  // Characters since the last line break: a row longer than MAX_RECORD_CHARS is refused before
  // csv-parse builds it (a 10 MB line of commas would be a record of 10 million fields).
  let lineLength = 0;
  for (let at = 0; at < csv.length && !failure;) {
    let end = Math.min(at + CSV_SLICE, csv.length);
    // Never split a surrogate pair between two slices.
    const last = csv.charCodeAt(end - 1);
    if (end < csv.length && last >= 0xd800 && last <= 0xdbff) end++;
    const slice = csv.slice(at, end);
    at = end;
    bytes += Buffer.byteLength(slice);
    const firstBreak = lineBreak(slice, 'first');
    if (firstBreak === -1) lineLength += slice.length;
    else {
      if (lineLength + firstBreak > MAX_RECORD_CHARS) fail(400, PEOPLE_MESSAGES.importRowTooLong);
      lineLength = slice.length - lineBreak(slice, 'last') - 1;
    }
    if (bytes > IMPORT_MAX_BYTES) fail(413, PEOPLE_MESSAGES.importTooLarge);
    else if (lineLength > MAX_RECORD_CHARS) fail(400, PEOPLE_MESSAGES.importRowTooLong);
    else if (!failure) parser.write(slice);
    await yieldToEventLoop();
  }
  if (!failure) {
    parser.end();
    await finished(parser).catch(() => undefined);
  }
  parser.destroy();
  if (failure) throw failure;
  return records;
}

interface Checked<T> {
  rows: number;
  valid: { row: number; data: T }[];
  errors: ImportIssue[];
  duplicates: ImportIssue[];
}

/** An export: the named columns of each row, through the one CSV writer (lib/csv.ts). */
export function exportCsv(columns: readonly string[], rows: Record<string, unknown>[]): string {
  return toCsv(
    rows.map((r) => columns.map((c) => r[c] as CsvValue)),
    columns,
  );
}

/** `exportCsv` of a whole school's rows, written in slices (a heavy report: lib/yield.ts). */
function exportCsvInSlices(columns: readonly string[], rows: Record<string, unknown>[]): Promise<string> {
  return toCsvInSlices(
    rows.map((r) => columns.map((c) => r[c] as CsvValue)),
    columns,
  );
}

export const STUDENT_EXPORT_COLUMNS = ['admission_number', ...STUDENT_CSV_COLUMNS] as const;
export const STAFF_EXPORT_COLUMNS = ['staff_id', ...STAFF_CSV_COLUMNS.filter((c) => c !== 'bank_account' && c !== 'tax_id')] as const;

export function studentsCsv(rows: StudentRecord[]): Promise<string> {
  return exportCsvInSlices(STUDENT_EXPORT_COLUMNS, rows as unknown as Record<string, unknown>[]);
}
export function staffCsv(rows: (StaffRecord & { qualifications?: string | null; employment_date?: string | null })[]): string {
  return exportCsv(STAFF_EXPORT_COLUMNS, rows as unknown as Record<string, unknown>[]);
}

/** Bulk import of students or staff from CSV: template, preview, all-or-nothing import. */
export class ImportService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly teaching: SchoolClasses,
    private readonly time: Pick<SchoolTime, 'year' | 'today'>,
    private readonly parentLinks?: StudentParentLinks,
  ) {}

  template(kind: ImportKind): string {
    return toCsv([], kind === 'students' ? STUDENT_CSV_COLUMNS : STAFF_CSV_COLUMNS);
  }

  private async check<T extends { email: string | null; username?: string }>(
    csv: string,
    spec: Spec<T>,
    kind: ImportKind,
  ): Promise<Checked<T>> {
    const records = await readCsvRecords(csv);
    const [header, ...body] = records;
    if (!header || !body.length) throw new HttpError(400, { non_field_errors: [PEOPLE_MESSAGES.importEmpty] });
    if (body.length > IMPORT_MAX_ROWS) throw new HttpError(400, { non_field_errors: [PEOPLE_MESSAGES.importTooManyRows] });

    const aliases = headerMap(spec.columns);
    const keys = header.record.map((h) => aliases.get(normalizeHeader(h)));
    const errors: ImportIssue[] = [];
    for (const col of spec.required) {
      if (!keys.includes(col)) errors.push({ row: 1, field: col, message: PEOPLE_MESSAGES.importMissingColumn });
    }
    if (errors.length) return { rows: body.length, valid: [], errors, duplicates: [] };

    const valid: { row: number; data: T }[] = [];
    const rowsWithErrors = new Set<number>();
    // "Not in the future" is the school's today (its time zone), not the schema's.
    const { today } = await this.time.today();
    for (const [n, { record, info }] of body.entries()) {
      if (n && n % ROWS_PER_SLICE === 0) await yieldToEventLoop();
      const raw: Record<string, string> = {};
      keys.forEach((k, i) => {
        if (k) raw[k] = record[i] ?? '';
      });
      const parsed = spec.parseRow(raw);
      const late = parsed.success ? personDatesAfter(today, parsed.data as Parameters<typeof personDatesAfter>[1]) : [];
      const r = late.length
        ? { success: false as const, issues: late.map((i) => ({ field: i.path.at(-1)!, message: i.message })) }
        : parsed;
      if (r.success) valid.push({ row: info.lines, data: r.data });
      else {
        rowsWithErrors.add(info.lines);
        for (const issue of r.issues) errors.push({ row: info.lines, ...issue });
      }
    }

    if (kind === 'students') await this.refuseUnknownClasses(valid as { row: number; data: { student_class?: string } }[], errors);

    const duplicates: ImportIssue[] = [];
    const seenEmail = new Map<string, number>();
    const seenUsername = new Map<string, number>();
    for (const v of valid) {
      // A student without an email duplicates nobody.
      const first = v.data.email === null ? undefined : seenEmail.get(v.data.email);
      if (first !== undefined) {
        duplicates.push({ row: v.row, field: 'email', message: `${PEOPLE_MESSAGES.duplicateInFile} (row ${first})` });
      } else if (v.data.email !== null) seenEmail.set(v.data.email, v.row);
      if (v.data.username) {
        const u = v.data.username.toLowerCase();
        const firstU = seenUsername.get(u);
        if (firstU !== undefined) {
          duplicates.push({ row: v.row, field: 'username', message: `${PEOPLE_MESSAGES.duplicateUsernameInFile} (row ${firstU})` });
        } else seenUsername.set(u, v.row);
      }
    }
    const inDb = await this.repo.existingEmails([...seenEmail.keys()]);
    const usernamesInDb = seenUsername.size ? await this.repo.existingUsernames([...seenUsername.keys()]) : new Set<string>();
    for (const v of valid) {
      if (v.data.email !== null && inDb.has(v.data.email) && seenEmail.get(v.data.email) === v.row) {
        duplicates.push({ row: v.row, field: 'email', message: PEOPLE_MESSAGES.duplicateInDatabase });
      }
      if (
        v.data.username &&
        usernamesInDb.has(v.data.username.toLowerCase()) &&
        seenUsername.get(v.data.username.toLowerCase()) === v.row
      ) {
        duplicates.push({ row: v.row, field: 'username', message: PEOPLE_MESSAGES.usernameTaken });
      }
    }
    duplicates.sort((a, b) => a.row - b.row);
    return { rows: body.length, valid, errors, duplicates };
  }

  /** Imported students go into the school's current arms only: other rows become errors (one read). */
  private async refuseUnknownClasses(valid: { row: number; data: { student_class?: string } }[], errors: ImportIssue[]): Promise<void> {
    const current = new Set(await this.teaching.classNames());
    for (let i = valid.length - 1; i >= 0; i--) {
      const v = valid[i]!;
      if (v.data.student_class !== undefined && !current.has(v.data.student_class)) {
        errors.push({ row: v.row, field: 'student_class', message: PEOPLE_MESSAGES.invalidClass });
        valid.splice(i, 1);
      }
    }
    errors.sort((a, b) => a.row - b.row);
  }

  private spec(kind: ImportKind): Spec<StudentCreate> | Spec<StaffCreate> {
    return kind === 'students' ? STUDENT_SPEC : STAFF_SPEC;
  }

  async preview(kind: ImportKind, csv: string): Promise<ImportPreview> {
    const c = await this.check<StudentCreate | StaffCreate>(csv, this.spec(kind), kind);
    const duplicateRows = new Set(c.duplicates.map((i) => i.row));
    // Only rows that will be stored: rows with errors are not in `valid`; duplicates are left out here.
    const sample = c.valid
      .filter((v) => !duplicateRows.has(v.row))
      .slice(0, 5)
      .map((v) => {
        const { password: _p, confirm_password: _c, ...rest } = v.data;
        const flat: Record<string, string> = { row: String(v.row) };
        for (const [k, val] of Object.entries(rest)) {
          if (val && typeof val === 'object') for (const [k2, v2] of Object.entries(val)) flat[k2] = v2 == null ? '' : String(v2);
          else flat[k] = val == null ? '' : String(val);
        }
        return flat;
      });
    return {
      rows: c.rows,
      valid: c.valid.filter((v) => !duplicateRows.has(v.row)).length,
      errors: c.errors,
      duplicates: c.duplicates,
      sample,
    };
  }

  /** All or nothing: any error or duplicate and nothing is stored. */
  async import(actor: AuthUser, kind: ImportKind, csv: string): Promise<ImportResult> {
    const c = await this.check<StudentCreate | StaffCreate>(csv, this.spec(kind), kind);
    if (c.errors.length || c.duplicates.length) {
      throw new HttpError(400, { non_field_errors: [PEOPLE_MESSAGES.importHasErrors], errors: c.errors, duplicates: c.duplicates });
    }
    const passwords = await generateOneTimePasswords(c.valid.length);
    const role = kind === 'students' ? 'student' : 'staff';
    try {
      return await this.repo.transaction(async (trx) => {
        const userIds = await this.repo.insertUsers(
          trx,
          c.valid.map((v, i) => ({ role, email: v.data.email, password_hash: passwords[i]!.hash })),
        );
        // Students get numbers in the school's format; staff ids stay STAFF-0001.
        const admissionNumbers = kind === 'students' ? await nextAdmissionNumbers(trx, c.valid.length, this.time) : [];
        const first = kind === 'students' ? 0 : await allocate(trx, STAFF_COUNTER, c.valid.length);
        const accounts = c.valid.map((v, i) => {
          const d = v.data as StudentCreate & StaffCreate;
          return {
            public_id: kind === 'students' ? admissionNumbers[i]! : formatStaffId(first + i),
            first_name: d.first_name,
            last_name: d.last_name,
            email: d.email,
            group: kind === 'students' ? d.student_class : d.designation,
            one_time_password: passwords[i]!.password,
          };
        });
        const profile = (i: number) => ({ userId: userIds[i]!, publicId: accounts[i]!.public_id });
        if (kind === 'students') {
          const studentIds = await this.repo.insertProfiles(
            trx,
            'students',
            c.valid.map((v, i) => ({ ...profile(i), values: studentValues(v.data as StudentCreate) })),
          );
          // Their parents, from the father's and mother's phones (issue 33), in the same transaction.
          await this.parentLinks?.linkStudents(
            trx,
            c.valid.map((v, i) => ({ ...studentValues(v.data as StudentCreate), id: studentIds[i]! })),
            'import',
          );
        } else {
          await this.repo.insertProfiles(
            trx,
            'staff',
            c.valid.map((v, i) => ({ ...profile(i), values: staffValues(v.data as StaffCreate) })),
          );
        }
        // Crash tests: the rows are written but not committed (a no-op unless PORTAL_FAULT_DIR is set).
        await faultPoint('import-in-transaction');
        await writeAuditMany(
          trx,
          accounts.map((a) => ({
            actorUserId: actor.id,
            action: 'import',
            entity: kind === 'students' ? 'student' : 'staff',
            entityId: a.public_id,
            after: { first_name: a.first_name, last_name: a.last_name, email: a.email, group: a.group },
          })),
        );
        return { created: accounts.length, accounts };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        // Someone registered one of these emails or usernames while the file was being checked.
        throw new HttpError(400, { non_field_errors: [PEOPLE_MESSAGES.importHasErrors], errors: [], duplicates: [] });
      }
      throw err;
    }
  }
}
