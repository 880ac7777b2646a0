import { sql, type RawBuilder } from 'kysely';

/**
 * Who did something, as every screen writes a person: "First Last" of the staff member
 * or admin behind a user (the SQL twin of the domain's `personName`), the sign-in email only when the
 * account has neither. `user`, `staff` and `admin` are the aliases of users, staff and admins joined
 * on the user's id.
 */
export function personNameOf(user: string, staff: string, admin: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce(${sql.ref(`${staff}.first_name`)} || ' ' || ${sql.ref(`${staff}.last_name`)}, ${sql.ref(
    `${admin}.first_name`,
  )} || ' ' || ${sql.ref(`${admin}.last_name`)}, ${sql.ref(`${user}.email`)})`;
}
