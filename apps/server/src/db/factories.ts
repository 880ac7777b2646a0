import { DEFAULT_SCALES, feeItemKey, formatAdmissionNumber, formatStaffId, gradeFor, levelOfClass } from '@portal/domain';
import { sql } from 'kysely';
import { hashPassword } from '../lib/passwords';
import { allocate } from './counters';
import { inSlices } from './slices';
import { nowIso, type DB, type Trx, inTransaction } from './index';

/**
 * Builders of real rows, used by the demo seed, tests and benchmarks alike so their data never
 * drift apart. Each writes through the same tables and id counters as the services.
 */

const hashCache = new Map<string, Promise<string>>();
/** argon2id is deliberately slow: hash each distinct password once per process. */
export function cachedHash(password: string): Promise<string> {
  let h = hashCache.get(password);
  if (!h) {
    h = hashPassword(password);
    hashCache.set(password, h);
  }
  return h;
}

export interface AccountInput {
  email: string;
  password: string;
  mustChangePassword?: boolean;
}

/** A new, enabled `users` row as the app writes one: the one shape for factories and raw test rows. */
export function newUserRow(role: 'admin' | 'staff' | 'student', email: string | null, passwordHash: string, mustChangePassword: boolean) {
  const now = nowIso();
  return {
    role,
    email,
    password_hash: passwordHash,
    must_change_password: mustChangePassword ? 1 : 0,
    disabled: 0,
    token_version: 0,
    created_at: now,
    updated_at: now,
  } as const;
}

async function insertUser(db: DB, role: 'admin' | 'staff' | 'student', a: AccountInput): Promise<number> {
  const row = await db
    .insertInto('users')
    .values(newUserRow(role, a.email.toLowerCase(), await cachedHash(a.password), a.mustChangePassword ?? false))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createAdmin(db: DB, a: AccountInput & { username?: string; firstName?: string; lastName?: string }) {
  const userId = await insertUser(db, 'admin', a);
  await db
    .insertInto('admins')
    .values({
      user_id: userId,
      username: a.username ?? a.email.split('@')[0] ?? 'admin',
      first_name: a.firstName ?? 'School',
      last_name: a.lastName ?? 'Admin',
    })
    .execute();
  return { userId, email: a.email, password: a.password };
}

export interface StaffInput extends AccountInput {
  firstName: string;
  lastName: string;
  designation?: string;
  department?: string;
  gender?: 'M' | 'F' | 'O';
  phone?: string;
}

/**
 * A staff member or student: the account, then in one transaction the next number of the person's
 * counter and the row `insert` writes with it (the columns every person row fills alike given).
 */
async function createPerson<N>(
  db: DB,
  kind: 'staff' | 'student',
  p: AccountInput & { firstName: string; lastName: string },
  format: (n: number) => N,
  insert: (
    trx: Trx,
    number: N,
    common: { user_id: number; first_name: string; last_name: string; created_at: string; updated_at: string },
  ) => Promise<{ id: number }>,
) {
  const userId = await insertUser(db, kind, p);
  return inTransaction(db, async (trx) => {
    const number = format(await allocate(trx, kind));
    const now = nowIso();
    const row = await insert(trx, number, {
      user_id: userId,
      first_name: p.firstName,
      last_name: p.lastName,
      created_at: now,
      updated_at: now,
    });
    return { id: row.id, userId, number, email: p.email, password: p.password };
  });
}

/** The details of a staff record the demo, tests and benchmarks leave at one value (a staff form's optional fields). */
export const DEMO_STAFF_DETAILS = {
  phone_number: '08030000000',
  marital_status: 'S',
  qualifications: null,
  employment_date: null,
  bank_account: null,
  tax_id: null,
} as const;

export async function createStaff(db: DB, s: StaffInput) {
  const { number: staffId, ...created } = await createPerson(db, 'staff', s, formatStaffId, (trx, staffId, common) =>
    trx
      .insertInto('staff')
      .values({
        ...common,
        staff_id: staffId,
        username: s.email.split('@')[0] ?? null,
        ...DEMO_STAFF_DETAILS,
        phone_number: s.phone ?? DEMO_STAFF_DETAILS.phone_number,
        gender: s.gender ?? 'F',
        designation: s.designation ?? 'Teacher',
        department: s.department ?? 'Sciences',
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { ...created, staffId };
}

export interface StudentInput extends AccountInput {
  firstName: string;
  lastName: string;
  /** One of the school's class names (an arm such as "JSS 1C"). */
  arm: string;
  gender?: 'M' | 'F' | 'O';
  dateOfBirth?: string;
}

export async function createStudent(db: DB, s: StudentInput) {
  const { number: admissionNumber, ...created } = await createPerson(
    db,
    'student',
    s,
    formatAdmissionNumber,
    (trx, admissionNumber, common) =>
      trx
        .insertInto('students')
        .values({
          ...common,
          admission_number: admissionNumber,
          phone_number: '08031234567',
          gender: s.gender ?? 'M',
          date_of_birth: s.dateOfBirth ?? '2011-05-14',
          student_class: s.arm,
          fathers_name: `Mr ${s.lastName}`,
          fathers_phone: '08039876543',
          mothers_name: `Mrs ${s.lastName}`,
          mothers_phone: '08035556666',
          home_address: '5 Allen Avenue, Ikeja, Lagos',
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
  );
  return { ...created, admissionNumber };
}

export async function createSession(db: DB, name: string, isCurrent = false) {
  if (isCurrent) await db.updateTable('academic_sessions').set({ is_current: 0 }).execute();
  const row = await db
    .insertInto('academic_sessions')
    .values({ name, is_current: isCurrent ? 1 : 0, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, name };
}

export interface FeeItemInput {
  arm: string;
  sessionId: number;
  term: '1st' | '2nd' | '3rd';
  name: string;
  amountKobo: number;
  compulsory?: boolean;
  createdAt?: string;
}

/** Fee items of a class's term, written straight to the table (no audit, no checks). */
export async function createFeeItems(db: DB, items: FeeItemInput[]) {
  const now = nowIso();
  for (const i of items)
    await db
      .insertInto('fee_items')
      .values({
        student_class: i.arm,
        session_id: i.sessionId,
        term: i.term,
        name: i.name,
        name_key: feeItemKey(i.name),
        amount_kobo: i.amountKobo,
        compulsory: i.compulsory === false ? 0 : 1,
        description: '',
        created_at: i.createdAt ?? now,
        updated_at: now,
      })
      .execute();
}

export interface ResultInput {
  studentId: number;
  sessionId: number;
  term: '1st' | '2nd' | '3rd';
  /** One of the school's class names (an arm such as "JSS 1C"). */
  arm: string;
  subject: string;
  score: number;
  remarks?: string;
}

/** Inserts results directly, graded with the default scale of the class's level. */
export async function createResults(db: DB, rows: ResultInput[]) {
  const now = nowIso();
  await inSlices(rows, 200, (slice) =>
    db
      .insertInto('results')
      .values(
        slice.map((r) => ({
          student_id: r.studentId,
          session_id: r.sessionId,
          term: r.term,
          student_class: r.arm,
          subject: r.subject,
          score: r.score,
          remarks: r.remarks ?? '',
          grade: gradeFor(r.score, DEFAULT_SCALES[levelOfClass(r.arm)]),
          version: 1,
          created_by: null,
          updated_by: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute(),
  );
}

export interface PaymentInput {
  reference: string;
  studentId: number;
  admissionNumber: string;
  arm: string;
  session: string;
  amountKobo: number;
  status: 'pending' | 'successful' | 'failed' | 'abandoned';
  term?: '1st' | '2nd' | '3rd' | null;
  paidAt?: string | null;
}

/**
 * An online payment as releases up to 0017 wrote one (only the columns of migration 0004), so it
 * works on a database at any migration since; upgrade tests use it.
 */
export async function createPayment(db: DB, p: PaymentInput) {
  const now = nowIso();
  await db
    .insertInto('payments')
    .values({
      reference: p.reference,
      student_id: p.studentId,
      admission_number: p.admissionNumber,
      full_name: 'Old Payer',
      current_class: p.arm,
      current_session: p.session,
      term: p.term ?? null,
      email: 'payer@test.school',
      phone_number: null,
      amount_kobo: p.amountKobo,
      currency: 'NGN',
      status: p.status,
      provider: 'paystack',
      provider_transaction_id: null,
      provider_access_code: null,
      provider_status: null,
      initiated_by: null,
      paid_at: p.status === 'successful' ? (p.paidAt ?? now) : null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // Since 0030 a payment keys by its session's id: set it as the release that wrote the row would have.
  const migrated = await sql<{ name: string }>`select name from kysely_migration where name = '0030_payment_session_ids'`.execute(db);
  if (migrated.rows.length)
    await sql`update payments set session_id = (select s.id from academic_sessions s where s.name = payments.current_session)
      where reference = ${p.reference}`.execute(db);
}
