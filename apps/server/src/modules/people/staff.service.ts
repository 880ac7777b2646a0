import {
  PEOPLE_MESSAGES,
  formatStaffId,
  type PasswordResetResponse,
  type StaffCreate,
  type StaffDetail,
  type StaffRecord,
  type StaffRegistration,
  type StaffUpdate,
  STAFF_CSV_COLUMNS,
} from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { allocate } from '../../db/counters';
import { personUpdateAudit, auditStaff, presentLegacyStaff, presentStaff, presentStaffDetail } from './people.presenters';
import { isUniqueViolation } from '../../db/errors';
import type { PeopleRepository, StaffRow } from './people.repository';
import type { StaffValues } from './accounts.queries';
import type { SchoolTime } from '../calendar/school-time.service';
import { refusePersonDatesAfterToday } from './person-dates';
import { resetToOneTimePassword } from './one-time-passwords';
import { editedPasswordHash, newAccountPassword } from './account-passwords';

/** The counter the factories and the services share for staff ids. */
export const STAFF_COUNTER = 'staff';

const emailTaken = () => badRequest({ email: [PEOPLE_MESSAGES.emailTaken] });
const usernameTaken = () => badRequest({ username: [PEOPLE_MESSAGES.usernameTaken] });

function translateUnique(err: unknown): never {
  if (isUniqueViolation(err, 'email')) throw emailTaken();
  if (isUniqueViolation(err, 'username')) throw usernameTaken();
  throw err;
}

/** The fields the API sends in a staff member's `profile_data`; stored as columns of their own ('' as null). */
const PROFILE_FIELDS = ['qualifications', 'employment_date', 'bank_account', 'tax_id'] as const;
/** The record's other fields an edit may change, each a column of the same name (the email is the account's). */
const RECORD_FIELDS = STAFF_CSV_COLUMNS.filter(
  (k): k is Exclude<(typeof STAFF_CSV_COLUMNS)[number], 'email' | (typeof PROFILE_FIELDS)[number]> =>
    k !== 'email' && !(PROFILE_FIELDS as readonly string[]).includes(k),
);

/** Rules of the staff records. Admin registers, updates and deletes; staff and admin view. */
export class StaffService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly time: Pick<SchoolTime, 'today'>,
  ) {}

  /** Bank account and tax ID: only an admin or the staff member themself. */
  private canSeePrivate(actor: AuthUser, row: StaffRow): boolean {
    return actor.role === 'admin' || actor.id === row.user_id;
  }

  async list(q?: string, limit?: number, offset?: number): Promise<StaffRecord[]> {
    return (await this.repo.listStaff(q, limit, offset)).map(presentStaff);
  }

  /** For the CSV export: the list plus qualifications and employment date (never bank or tax details). */
  async exportRows() {
    return (await this.repo.listStaff()).map((r) => ({
      ...presentStaff(r),
      qualifications: r.qualifications,
      employment_date: r.employment_date,
    }));
  }

  private async load(staffId: string): Promise<StaffRow> {
    const row = await this.repo.findStaffByStaffId(staffId.toUpperCase());
    if (!row) throw notFound(PEOPLE_MESSAGES.staffNotFound);
    return row;
  }

  private async loadById(id: number): Promise<StaffRow> {
    const row = await this.repo.findStaffById(id);
    if (!row) throw notFound(PEOPLE_MESSAGES.staffNotFound);
    return row;
  }

  async get(actor: AuthUser, staffId: string): Promise<StaffDetail> {
    const row = await this.load(staffId);
    return presentStaffDetail(row, this.canSeePrivate(actor, row));
  }

  async getById(actor: AuthUser, id: number): Promise<StaffDetail> {
    const row = await this.loadById(id);
    return presentStaffDetail(row, this.canSeePrivate(actor, row));
  }

  async getLegacy(id: number) {
    return presentLegacyStaff(await this.loadById(id));
  }

  async create(actor: AuthUser, input: StaffCreate): Promise<StaffRegistration> {
    await refusePersonDatesAfterToday(this.time, input);
    if (await this.repo.emailTaken(input.email)) throw emailTaken();
    if (await this.repo.usernameTaken(input.username)) throw usernameTaken();
    const { password, passwordHash, generated } = await newAccountPassword(this.repo, input);
    try {
      const row = await this.repo.transaction(async (trx) => {
        const [userId] = await this.repo.insertUsers(trx, [{ role: 'staff', email: input.email, password_hash: passwordHash }]);
        const staffId = formatStaffId(await allocate(trx, STAFF_COUNTER));
        await this.repo.insertProfiles(trx, 'staff', [{ userId: userId!, publicId: staffId, values: staffValues(input) }]);
        const created = (await this.repo.findStaffByStaffId(staffId, trx))!;
        await writeAudit(trx, { actorUserId: actor.id, action: 'create', entity: 'staff', entityId: staffId, after: auditStaff(created) });
        return created;
      });
      return { ...presentStaffDetail(row, true), must_change_password: true, ...(generated ? { one_time_password: password } : {}) };
    } catch (err) {
      return translateUnique(err);
    }
  }

  async update(actor: AuthUser, staffId: string, input: StaffUpdate): Promise<StaffDetail> {
    await refusePersonDatesAfterToday(this.time, input);
    const before = await this.load(staffId);
    if (input.email !== undefined && input.email !== before.email && (await this.repo.emailTaken(input.email, before.user_id))) {
      throw emailTaken();
    }
    if (input.username !== undefined && (await this.repo.usernameTaken(input.username, before.id))) throw usernameTaken();
    const passwordHash = await editedPasswordHash(this.repo, input, before.email);
    try {
      const after = await this.repo.transaction(async (trx) => {
        const values: Partial<StaffValues> = {};
        for (const k of RECORD_FIELDS) if (input[k] !== undefined) (values as Record<string, unknown>)[k] = input[k];
        const p = input.profile_data ?? {};
        for (const k of PROFILE_FIELDS) if (p[k] !== undefined) values[k] = p[k] || null;
        await this.repo.updateProfile(trx, 'staff', before.id, values);
        if (input.email !== undefined && input.email !== before.email) await this.repo.setEmail(trx, before.user_id, input.email);
        if (passwordHash) await this.repo.setPasswordForced(trx, before.user_id, passwordHash);
        const row = (await this.repo.findStaffById(before.id, trx))!;
        await writeAudit(trx, personUpdateAudit(actor.id, 'staff', before.staff_id, auditStaff(before), auditStaff(row), !!passwordHash));
        return row;
      });
      return presentStaffDetail(after, true);
    } catch (err) {
      return translateUnique(err);
    }
  }

  async delete(actor: AuthUser, staffId: string): Promise<void> {
    await this.deleteRow(actor, await this.load(staffId));
  }

  async deleteLegacy(actor: AuthUser, id: number): Promise<void> {
    await this.deleteRow(actor, await this.loadById(id));
  }

  private async deleteRow(actor: AuthUser, row: StaffRow): Promise<void> {
    await this.repo.transaction(async (trx) => {
      await this.repo.deleteUser(trx, row.user_id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'delete', entity: 'staff', entityId: row.staff_id, before: auditStaff(row) });
    });
  }

  async resetPassword(actor: AuthUser, staffId: string): Promise<PasswordResetResponse> {
    const row = await this.load(staffId);
    return resetToOneTimePassword(this.repo, actor, { userId: row.user_id, entity: 'staff', entityId: row.staff_id });
  }
}

export function staffValues(input: StaffCreate): StaffValues {
  const p = input.profile_data ?? {};
  return {
    username: input.username,
    first_name: input.first_name,
    last_name: input.last_name,
    phone_number: input.phone_number,
    gender: input.gender ?? null,
    designation: input.designation,
    department: input.department,
    marital_status: input.marital_status ?? null,
    qualifications: p.qualifications || null,
    employment_date: p.employment_date || null,
    bank_account: p.bank_account || null,
    tax_id: p.tax_id || null,
  };
}
