import { sql, type Nullable, type RawBuilder, type SelectQueryBuilder, type StringReference } from 'kysely';
import type { AdminsTable, Database, StaffTable, UsersTable } from './schema';

/** The tables `leftJoinPerson` adds under `as`: the account, its staff record and its admin record. */
type PersonTables<A extends string> = Record<A, Nullable<UsersTable>> &
  Record<`${A}_staff`, Nullable<StaffTable>> &
  Record<`${A}_admin`, Nullable<AdminsTable>>;

/**
 * Left-joins the person behind a user id column (who recorded, marked, approved…): the account as
 * `as`, its staff record as `${as}_staff` and its admin record as `${as}_admin`, all null where the
 * column is. One helper so that every "who did it" read joins the same three tables the same way.
 */
export function leftJoinPerson<DB, TB extends keyof DB, O, A extends string>(
  qb: SelectQueryBuilder<DB, TB, O>,
  as: A,
  userId: StringReference<DB, TB>,
): SelectQueryBuilder<DB & PersonTables<A>, TB | A | `${A}_staff` | `${A}_admin`, O> {
  // Kysely types a join by its alias, which is a type parameter here: the joins are typed as if the
  // alias were 'person' and the return type above says what they add.
  const q = qb as unknown as SelectQueryBuilder<Database, never, O>;
  const on = userId as unknown as 'person.id';
  return q
    .leftJoin(`users as ${as}` as 'users as person', `${as}.id` as 'person.id', on)
    .leftJoin(`staff as ${as}_staff` as 'staff as person_staff', `${as}_staff.user_id` as 'person_staff.user_id', on)
    .leftJoin(
      `admins as ${as}_admin` as 'admins as person_admin',
      `${as}_admin.user_id` as 'person_admin.user_id',
      on,
    ) as unknown as SelectQueryBuilder<DB & PersonTables<A>, TB | A | `${A}_staff` | `${A}_admin`, O>;
}

/**
 * The name of a person joined by `leftJoinPerson(…, as, …)` as people know it: "First Last" of the
 * staff member or admin, else null (where the screen shows the sign-in email itself).
 */
export function staffOrAdminNameOf(as: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce(${fullName(`${as}_staff`)}, ${fullName(`${as}_admin`)})`;
}

/**
 * Who did something, as every screen writes a person: "First Last" of the staff member or admin
 * joined by `leftJoinPerson(…, as, …)` (the SQL twin of the domain's `personName`), the sign-in email
 * only when the account has neither.
 */
export function personNameOf(as: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce(${fullName(`${as}_staff`)}, ${fullName(`${as}_admin`)}, ${sql.ref(`${as}.email`)})`;
}

function fullName(table: string) {
  return sql`${sql.ref(`${table}.first_name`)} || ' ' || ${sql.ref(`${table}.last_name`)}`;
}
