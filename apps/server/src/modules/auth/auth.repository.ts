import { sql } from 'kysely';
import type { Role, StaffCapability } from '@portal/domain';
import './capabilities.tables';
import { nowIso, type Conn, type DB, inTransaction } from '../../db/index';
import { QueryTemplates } from '../../db/query-templates';
import { writeAudit, type AuditEntry } from '../../db/audit';
import { schoolSettingsIn } from '../settings/settings.service';

/**
 * A stored admission number's comparison key in SQL, the domain's `admissionNumberKey` for the
 * characters a stored number may hold (letters, digits, - and /). Indexed by migration 0024 with this
 * exact expression (SQLite uses an expression index only for the identical expression).
 */
const ADMISSION_KEY_SQL = sql<string>`upper(replace(replace(students.admission_number, '-', ''), '/', ''))`;

/** Skew tolerated between instances' clocks, as for tokens: beyond it a stored time "from the future" is a clock step. */
const CLOCK_TOLERANCE_MS = 30_000;

export interface AccountRow {
  id: number;
  role: Role;
  /** Null for a student registered without one (found by admission number only). */
  email: string | null;
  password_hash: string;
  must_change_password: number;
  disabled: number;
  token_version: number;
}

/** The columns of an `AccountRow`, read from `users`. */
const ACCOUNT_COLUMNS = ['id', 'role', 'email', 'password_hash', 'must_change_password', 'disabled', 'token_version'] as const;

/**
 * Where a role's name and public id are kept (its profile table and public id column), and what
 * `profileOf` answers for an account without that row.
 */
const PROFILES = {
  admin: { table: 'admins', publicId: 'username', none: { first_name: 'Admin', last_name: '', public_id: 'admin' } },
  staff: { table: 'staff', publicId: 'staff_id', none: { first_name: '', last_name: '', public_id: '' } },
  student: { table: 'students', publicId: 'admission_number', none: { first_name: '', last_name: '', public_id: '' } },
} as const;

/** A refresh token as stored when issued. */
type NewRefreshToken = { userId: number; familyId: string; hash: string; expiresAt: string; createdAt: string };

/** Stores an issued refresh token (neither used nor revoked yet). */
async function insertRefreshToken(conn: Conn, t: NewRefreshToken): Promise<void> {
  await conn
    .insertInto('refresh_tokens')
    .values({
      user_id: t.userId,
      family_id: t.familyId,
      token_hash: t.hash,
      expires_at: t.expiresAt,
      revoked_at: null,
      used_at: null,
      created_at: t.createdAt,
    })
    .execute();
}

/** SQL for accounts, refresh tokens and the sign-in throttle. */
export class AuthRepository {
  private readonly hot = new QueryTemplates();

  constructor(private readonly db: DB) {}

  /**
   * The auth guard's lookup, run on every authenticated request (compiled once, see QueryTemplates):
   * the account's state and how many live refresh tokens its sign-in session (family) still has.
   */
  guardLookup(userId: number, familyId: string, capability?: StaffCapability) {
    // A route needing a capability asks for it in the same statement (its own compiled shape).
    return this.hot.execute(
      this.db,
      capability ? 'authLookupCapability' : 'authLookup',
      (slot) => {
        const q = this.db
          .selectFrom('users')
          .select([
            'id',
            'role',
            'email',
            'disabled',
            'must_change_password',
            'token_version',
            sql<number>`(select count(*) from refresh_tokens r where r.family_id = ${slot('familyId')} and r.revoked_at is null)`.as(
              'live',
            ),
          ])
          .where('id', '=', slot('userId'));
        return capability
          ? q.select(
              sql<number>`(select count(*) from staff_capabilities c where c.user_id = users.id and c.capability = ${slot('capability')})`.as(
                'capable',
              ),
            )
          : q.select(sql<number>`0`.as('capable'));
      },
      capability ? { userId, familyId, capability } : { userId, familyId },
    );
  }

  findAccountByEmail(email: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('email', '=', email).executeTakeFirst();
  }

  /**
   * The accounts of the students whose admission number has this key (the domain's
   * `admissionNumberKey`: no spaces, dashes or slashes, upper case), through the expression index of
   * migration 0024. More than one only when two stored numbers differ by separators alone.
   */
  findStudentAccountsByAdmissionKey(key: string): Promise<AccountRow[]> {
    return this.db
      .selectFrom('students')
      .innerJoin('users', 'users.id', 'students.user_id')
      .select(ACCOUNT_COLUMNS.map((c) => `users.${c}` as const))
      .where(ADMISSION_KEY_SQL, '=', key)
      .limit(2)
      .execute();
  }

  /** A parent's account by their phone (E.164, parents.phone is unique). */
  findParentAccountByPhone(phone: string): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('parents')
      .innerJoin('users', 'users.id', 'parents.user_id')
      .select(ACCOUNT_COLUMNS.map((c) => `users.${c}` as const))
      .where('parents.phone', '=', phone)
      .executeTakeFirst();
  }

  /** A parent's record and the children linked (GET /api/me/ of a parent): two statements. */
  async parentOf(userId: number) {
    const parent = await this.db
      .selectFrom('parents')
      .select(['id', 'name', 'phone', 'email'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const children = parent
      ? await this.db
          .selectFrom('parent_links as pl')
          .innerJoin('students as s', 's.id', 'pl.student_id')
          .select(['s.admission_number', 's.first_name', 's.last_name', 's.student_class as arm'])
          .where('pl.parent_id', '=', parent.id)
          .orderBy('s.admission_number')
          .execute()
      : [];
    return { parent, children };
  }

  async setParentSignedIn(userId: number, at: string): Promise<void> {
    await this.db.updateTable('parents').set({ last_sign_in_at: at }).where('user_id', '=', userId).execute();
  }

  /** The school's name, which no password may contain (ASVS 6.2.11). */
  async schoolName(): Promise<string> {
    return (await schoolSettingsIn(this.db)).school_name;
  }

  audit(entry: AuditEntry): Promise<void> {
    return writeAudit(this.db, entry);
  }

  findAccountById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** The status of a student's account when it cannot sign in ('withdrawn' or 'graduated'): the sign-in says why. */
  async studentLeftAs(userId: number): Promise<'withdrawn' | 'graduated' | undefined> {
    const row = await this.db.selectFrom('students').select('status').where('user_id', '=', userId).executeTakeFirst();
    return row?.status === 'withdrawn' || row?.status === 'graduated' ? row.status : undefined;
  }

  /** Name and public id of an account, for the login envelope and /api/me. */
  async profileOf(userId: number, role: Role): Promise<{ first_name: string; last_name: string; public_id: string }> {
    if (role === 'parent') return this.parentProfileOf(userId);
    const { table, publicId, none } = PROFILES[role];
    // Every profile table has the name columns and `user_id`; the public id column is the role's.
    const row = await this.db
      .selectFrom(table as 'staff')
      .select([sql.ref<string>(publicId).as('public_id'), 'first_name', 'last_name'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return {
      first_name: row?.first_name ?? none.first_name,
      last_name: row?.last_name ?? none.last_name,
      public_id: row?.public_id ?? none.public_id,
    };
  }

  /** A parent's name (one text, split at its first space) and phone (the public id). */
  private async parentProfileOf(userId: number): Promise<{ first_name: string; last_name: string; public_id: string }> {
    const row = await this.db.selectFrom('parents').select(['name', 'phone']).where('user_id', '=', userId).executeTakeFirst();
    const name = row?.name.trim() ?? '';
    const space = name.indexOf(' ');
    return {
      first_name: space < 0 ? name : name.slice(0, space),
      last_name: space < 0 ? '' : name.slice(space + 1).trim(),
      public_id: row?.phone ?? '',
    };
  }

  storeRefreshToken(userId: number, familyId: string, hash: string, expiresAt: string, createdAt: string): Promise<void> {
    return insertRefreshToken(this.db, { userId, familyId, hash, expiresAt, createdAt });
  }

  findRefreshToken(hash: string) {
    return this.db
      .selectFrom('refresh_tokens')
      .select(['id', 'user_id', 'family_id', 'expires_at', 'created_at', 'revoked_at', 'used_at'])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
  }

  /**
   * Spends a refresh token and stores its successor in ONE transaction; false when someone else
   * spent it first (a replay). A concurrent replay's family revocation then also reaches the
   * successor, because it can only run after this commit.
   */
  async rotateRefreshToken(spentId: number, next: NewRefreshToken): Promise<boolean> {
    return inTransaction(this.db, async (trx) => {
      const r = await trx
        .updateTable('refresh_tokens')
        .set({ used_at: nowIso() })
        .where('id', '=', spentId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await insertRefreshToken(trx, next);
      return true;
    });
  }

  revokeFamily(familyId: string): Promise<void> {
    return this.revokeWhere('family_id', familyId);
  }

  revokeAllForUser(userId: number): Promise<void> {
    return this.revokeWhere('user_id', userId);
  }

  /** Revokes the live refresh tokens of one sign-in session (`family_id`) or of every session of an account (`user_id`). */
  private async revokeWhere(column: 'family_id' | 'user_id', value: string | number): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where(column, '=', value)
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

  /**
   * Reserves one attempt under `key` BEFORE the password is checked, in one conditional upsert, so
   * parallel requests (on any number of instances sharing the database) cannot all read "below the
   * limit" and then all be checked. `failures` counts the attempts reserved in the window; a row that
   * is blocked, or already holds `max` attempts, is left alone and the reservation is refused. A
   * window that ran out, or a block that ended, starts again at one; so does a window that starts, or
   * a block that ends, further ahead than its own length from now (stored while the clock ran fast):
   * no stored limit outlasts its configured length measured from now.
   */
  async reserveAttempt(key: string, now: Date, limits: { windowSeconds: number; max: number; blockSeconds: number }): Promise<boolean> {
    const nowText = now.toISOString();
    const cutoff = new Date(now.getTime() - limits.windowSeconds * 1000).toISOString();
    const ahead = new Date(now.getTime() + CLOCK_TOLERANCE_MS).toISOString();
    const blockHorizon = new Date(now.getTime() + limits.blockSeconds * 1000 + CLOCK_TOLERANCE_MS).toISOString();
    const expired = sql<boolean>`(login_throttle.window_start < ${cutoff} or login_throttle.window_start > ${ahead} or (login_throttle.blocked_until is not null and (login_throttle.blocked_until <= ${nowText} or login_throttle.blocked_until > ${blockHorizon})))`;
    const row = await this.db
      .insertInto('login_throttle')
      .values({ key, failures: 1, window_start: nowText, blocked_until: null })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            failures: sql<number>`case when ${expired} then 1 else login_throttle.failures + 1 end`,
            window_start: sql<string>`case when ${expired} then ${nowText} else login_throttle.window_start end`,
            blocked_until: sql<string | null>`case when ${expired} then null else login_throttle.blocked_until end`,
          })
          .where(sql<boolean>`${expired} or (login_throttle.blocked_until is null and login_throttle.failures < ${limits.max})`),
      )
      .returning('failures')
      .executeTakeFirst();
    // Now and then, forget rows whose window and block are long over (unknown emails pile up otherwise).
    if (Math.random() < 0.02) await this.pruneThrottle(now);
    return row !== undefined;
  }

  /** Gives a reserved attempt back (it was not a failure: the right password, or refused by another counter). */
  async releaseAttempt(key: string): Promise<void> {
    await this.db
      .updateTable('login_throttle')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('key', '=', key)
      .where('failures', '>', 0)
      .where('blocked_until', 'is', null)
      .execute();
  }

  /**
   * After a failed attempt: blocks `key` for `blockSeconds` once its reserved attempts reach `max`.
   * Further attempts during the block are refused without extending it. True when now blocked.
   */
  async blockIfExhausted(key: string, now: Date, max: number, blockSeconds: number): Promise<boolean> {
    await this.db
      .updateTable('login_throttle')
      .set({ blocked_until: new Date(now.getTime() + blockSeconds * 1000).toISOString() })
      .where('key', '=', key)
      .where('failures', '>=', max)
      .where('blocked_until', 'is', null)
      .execute();
    const row = await this.getThrottle(key);
    return Boolean(row?.blocked_until && Date.parse(row.blocked_until) > now.getTime());
  }

  /** Rows of the sign-in counters (keys starting with one of `prefixes`) blocked beyond `now`, soonest to end first. */
  listSignInBlocks(now: Date, prefixes: readonly string[]) {
    return this.db
      .selectFrom('login_throttle')
      .select(['key', 'blocked_until'])
      .where((eb) => eb.or(prefixes.map((p) => eb(sql<string>`substr(key, 1, ${p.length})`, '=', p))))
      .where('blocked_until', '>', now.toISOString())
      .orderBy('blocked_until')
      .limit(500)
      .execute();
  }

  /**
   * Removes sign-in throttle rows matching any of `matches`: one key, or every key starting with a
   * prefix (an account on all addresses). substr rather than LIKE: emails may hold `_` and `%`.
   * Returns how many of them were blocked.
   */
  async clearSignInBlocks(matches: ({ key: string } | { prefix: string })[], now: Date): Promise<number> {
    const filter = sql<boolean>`(${sql.join(
      matches.map((m) => ('key' in m ? sql`key = ${m.key}` : sql`substr(key, 1, ${m.prefix.length}) = ${m.prefix}`)),
      sql` or `,
    )})`;
    return inTransaction(this.db, async (trx) => {
      const blocked = await trx
        .selectFrom('login_throttle')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(filter)
        .where('blocked_until', '>', now.toISOString())
        .executeTakeFirst();
      await trx.deleteFrom('login_throttle').where(filter).execute();
      return Number(blocked?.n ?? 0);
    });
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
