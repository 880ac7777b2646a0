import { sql } from 'kysely';
import type { Role } from '@portal/domain';
import { nowIso, type DB } from '../../db/index';

export interface AccountRow {
  id: number;
  role: Role;
  email: string;
  password_hash: string;
  must_change_password: number;
  disabled: number;
  token_version: number;
}

/** SQL for accounts, refresh tokens and the sign-in throttle. */
export class AuthRepository {
  constructor(private readonly db: DB) {}

  findAccountByEmail(email: string): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'password_hash', 'must_change_password', 'disabled', 'token_version'])
      .where('email', '=', email)
      .executeTakeFirst();
  }

  findAccountById(id: number): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'password_hash', 'must_change_password', 'disabled', 'token_version'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** True when the account is a withdrawn student's (issue 11 item 21: the sign-in says so). */
  async isWithdrawnStudent(userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('students').select('status').where('user_id', '=', userId).executeTakeFirst();
    return row?.status === 'withdrawn';
  }

  /** Name and public id of an account, for the login envelope and /api/me. */
  async profileOf(userId: number, role: Role): Promise<{ first_name: string; last_name: string; public_id: string }> {
    if (role === 'admin') {
      const a = await this.db
        .selectFrom('admins')
        .select(['username', 'first_name', 'last_name'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { first_name: a?.first_name ?? 'Admin', last_name: a?.last_name ?? '', public_id: a?.username ?? 'admin' };
    }
    if (role === 'staff') {
      const s = await this.db
        .selectFrom('staff')
        .select(['staff_id', 'first_name', 'last_name'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { first_name: s?.first_name ?? '', last_name: s?.last_name ?? '', public_id: s?.staff_id ?? '' };
    }
    const st = await this.db
      .selectFrom('students')
      .select(['admission_number', 'first_name', 'last_name'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { first_name: st?.first_name ?? '', last_name: st?.last_name ?? '', public_id: st?.admission_number ?? '' };
  }

  async storeRefreshToken(userId: number, familyId: string, hash: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('refresh_tokens')
      .values({
        user_id: userId,
        family_id: familyId,
        token_hash: hash,
        expires_at: expiresAt,
        revoked_at: null,
        used_at: null,
        created_at: nowIso(),
      })
      .execute();
  }

  findRefreshToken(hash: string) {
    return this.db
      .selectFrom('refresh_tokens')
      .select(['id', 'user_id', 'family_id', 'expires_at', 'revoked_at', 'used_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
  }

  /**
   * Spends a refresh token and stores its successor in ONE transaction; false when someone else
   * spent it first (a replay). A concurrent replay's family revocation then also reaches the
   * successor, because it can only run after this commit.
   */
  async rotateRefreshToken(spentId: number, next: { userId: number; familyId: string; hash: string; expiresAt: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('refresh_tokens')
        .set({ used_at: nowIso() })
        .where('id', '=', spentId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await trx
        .insertInto('refresh_tokens')
        .values({
          user_id: next.userId,
          family_id: next.familyId,
          token_hash: next.hash,
          expires_at: next.expiresAt,
          revoked_at: null,
          used_at: null,
          created_at: nowIso(),
        })
        .execute();
      return true;
    });
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAllForUser(userId: number): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async setPassword(userId: number, passwordHash: string, mustChange: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        must_change_password: mustChange ? 1 : 0,
        token_version: eb('token_version', '+', 1),
        updated_at: nowIso(),
      }))
      .where('id', '=', userId)
      .execute();
  }

  getThrottle(key: string) {
    return this.db.selectFrom('login_throttle').selectAll().where('key', '=', key).executeTakeFirst();
  }

  async recordFailure(key: string, now: Date, windowSeconds: number, maxFailures: number, blockSeconds: number): Promise<void> {
    const row = await this.getThrottle(key);
    const windowExpired = !row || now.getTime() - Date.parse(row.window_start) > windowSeconds * 1000;
    const failures = windowExpired ? 1 : row.failures + 1;
    const blocked = failures >= maxFailures ? new Date(now.getTime() + blockSeconds * 1000).toISOString() : null;
    await this.db
      .insertInto('login_throttle')
      .values({
        key,
        failures: blocked ? 0 : failures,
        window_start: windowExpired ? now.toISOString() : row.window_start,
        blocked_until: blocked,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: blocked ? 0 : failures,
          window_start: windowExpired ? now.toISOString() : row.window_start,
          blocked_until: blocked ?? sql`login_throttle.blocked_until`,
        }),
      )
      .execute();
    // Now and then, forget throttle rows whose window and block are long over (unknown emails pile up otherwise).
    if (Math.random() < 0.02) await this.pruneThrottle(now);
  }

  async pruneThrottle(now: Date): Promise<void> {
    const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
    await this.db
      .deleteFrom('login_throttle')
      .where('window_start', '<', dayAgo)
      .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', now.toISOString())]))
      .execute();
  }

  async clearThrottle(key: string): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', '=', key).execute();
  }
}
