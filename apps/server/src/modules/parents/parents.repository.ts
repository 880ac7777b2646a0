import { sql } from 'kysely';
import type { ParentLinkSource, ParentRelationship } from '@portal/domain';
import { Repository, type Conn } from '../../db/index';
import { inSlices } from '../../db/slices';

export interface ParentRow {
  id: number;
  user_id: number;
  name: string;
  phone: string;
  email: string | null;
  created_at: string;
  invited_at: string | null;
  last_sign_in_at: string | null;
}

export interface LinkedChildRow {
  parent_id: number;
  student_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  arm: string;
  relationship: ParentRelationship;
  source: ParentLinkSource;
}

export interface NewLink {
  parentId: number;
  studentId: number;
  relationship: ParentRelationship;
  source: ParentLinkSource;
}

export interface NewConflict {
  phone: string;
  studentId: number;
  relationship: ParentRelationship;
  nameGiven: string;
  source: ParentLinkSource;
}

export interface ConflictRow {
  phone: string;
  student_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  arm: string;
  relationship: ParentRelationship;
  name_given: string;
  parent_id: number | null;
  parent_name: string | null;
}

const PARENT_COLUMNS = [
  'parents.id',
  'parents.user_id',
  'parents.name',
  'parents.phone',
  'parents.email',
  'parents.created_at',
  'parents.invited_at',
  'parents.last_sign_in_at',
] as const;

/** Rows per multi-row statement (SQLite's bound-parameter limit). */
const SLICE = 150;

/** SQL of parents, their links and conflicts (migration 0032). */
export class ParentsRepository extends Repository {
  get conn(): Conn {
    return this.db;
  }

  parentsByPhones(conn: Conn, phones: readonly string[]): Promise<ParentRow[]> {
    return inSlices([...new Set(phones)], 500, (slice) => conn.selectFrom('parents').select(PARENT_COLUMNS).where('phone', 'in', slice).execute());
  }

  parentById(id: number, conn: Conn = this.db): Promise<ParentRow | undefined> {
    return conn.selectFrom('parents').select(PARENT_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  parentByUser(userId: number, conn: Conn = this.db): Promise<ParentRow | undefined> {
    return conn.selectFrom('parents').select(PARENT_COLUMNS).where('user_id', '=', userId).executeTakeFirst();
  }

  /** New parent accounts (role 'parent', no usable password until invited) and their records; ids in input order. */
  async insertParents(conn: Conn, parents: { name: string; phone: string; email: string | null }[], now: string): Promise<ParentRow[]> {
    return inSlices(parents, SLICE, async (slice) => {
      const users = await conn
        .insertInto('users')
        .values(
          slice.map((p) => ({
            role: 'parent' as const,
            email: p.email,
            // No password until the admin invites: nothing verifies against '!' (lib/passwords).
            password_hash: '!',
            must_change_password: 1,
            disabled: 0,
            token_version: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute();
      return conn
        .insertInto('parents')
        .values(slice.map((p, i) => ({ user_id: users[i]!.id, name: p.name, phone: p.phone, email: p.email, created_at: now })))
        .returning(PARENT_COLUMNS.map((c) => c.replace('parents.', '') as 'id'))
        .execute() as unknown as Promise<ParentRow[]>;
    });
  }

  /** Links (an existing pair is kept as it is). */
  async insertLinks(conn: Conn, links: readonly NewLink[], now: string): Promise<void> {
    await inSlices(links, SLICE, async (slice) => {
      await conn
        .insertInto('parent_links')
        .values(
          slice.map((l) => ({ parent_id: l.parentId, student_id: l.studentId, relationship: l.relationship, source: l.source, created_at: now })),
        )
        .onConflict((oc) => oc.columns(['parent_id', 'student_id']).doNothing())
        .execute();
      return [];
    });
  }

  /** The links of these students (to decide what a saved form changes). */
  linksOfStudents(conn: Conn, studentIds: readonly number[]) {
    return inSlices([...studentIds], 500, (slice) =>
      conn
        .selectFrom('parent_links as pl')
        .innerJoin('parents as p', 'p.id', 'pl.parent_id')
        .select(['pl.id', 'pl.parent_id', 'pl.student_id', 'pl.source', 'p.phone'])
        .where('pl.student_id', 'in', slice)
        .execute(),
    );
  }

  async deleteLinksById(conn: Conn, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await inSlices([...ids], 500, async (slice) => {
      await conn.deleteFrom('parent_links').where('id', 'in', slice).execute();
      return [];
    });
  }

  async deleteLink(conn: Conn, parentId: number, studentId: number): Promise<boolean> {
    const r = await conn.deleteFrom('parent_links').where('parent_id', '=', parentId).where('student_id', '=', studentId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Open conflicts are recorded once per (phone, student, relationship); a settled one is left settled. */
  async insertConflicts(conn: Conn, conflicts: readonly NewConflict[], now: string): Promise<void> {
    await inSlices(conflicts, SLICE, async (slice) => {
      await conn
        .insertInto('parent_link_conflicts')
        .values(
          slice.map((c) => ({
            phone: c.phone,
            student_id: c.studentId,
            relationship: c.relationship,
            name_given: c.nameGiven,
            source: c.source,
            created_at: now,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['phone', 'student_id', 'relationship'])
            .doUpdateSet({ name_given: (eb) => eb.ref('excluded.name_given') })
            .where('parent_link_conflicts.resolved_at', 'is', null),
        )
        .execute();
      return [];
    });
  }

  /** The conflicts of these students (open or settled), to drop those whose phone the form no longer gives. */
  conflictsOfStudents(conn: Conn, studentIds: readonly number[]) {
    return inSlices([...studentIds], 500, (slice) =>
      conn
        .selectFrom('parent_link_conflicts')
        .select(['id', 'phone', 'student_id', 'relationship', 'resolved_at', 'resolution'])
        .where('student_id', 'in', slice)
        .execute(),
    );
  }

  async deleteConflictsById(conn: Conn, ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await conn.deleteFrom('parent_link_conflicts').where('id', 'in', [...ids]).execute();
  }

  openConflicts(conn: Conn = this.db): Promise<ConflictRow[]> {
    return conn
      .selectFrom('parent_link_conflicts as c')
      .innerJoin('students as s', 's.id', 'c.student_id')
      .leftJoin('parents as p', 'p.phone', 'c.phone')
      .select([
        'c.phone',
        'c.student_id',
        's.admission_number',
        's.first_name',
        's.last_name',
        's.student_class as arm',
        'c.relationship',
        'c.name_given',
        'p.id as parent_id',
        'p.name as parent_name',
      ])
      .where('c.resolved_at', 'is', null)
      .orderBy('c.phone')
      .orderBy('s.admission_number')
      .limit(2000)
      .execute();
  }

  openConflict(conn: Conn, phone: string, studentId: number) {
    return conn
      .selectFrom('parent_link_conflicts')
      .select(['id', 'relationship', 'name_given', 'source'])
      .where('phone', '=', phone)
      .where('student_id', '=', studentId)
      .where('resolved_at', 'is', null)
      .execute();
  }

  async settleConflicts(conn: Conn, ids: readonly number[], resolution: 'link' | 'dismiss', now: string): Promise<void> {
    if (!ids.length) return;
    await conn.updateTable('parent_link_conflicts').set({ resolved_at: now, resolution }).where('id', 'in', [...ids]).execute();
  }

  async renameParent(conn: Conn, id: number, name: string): Promise<void> {
    await conn.updateTable('parents').set({ name }).where('id', '=', id).execute();
  }

  /** The admin's list: by name, phone or email, with the number of children linked. */
  async list(search: string | undefined, limit: number, offset: number) {
    let q = this.db.selectFrom('parents');
    if (search) {
      const like = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const digits = search.replace(/\D/g, '');
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(parents.name)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(coalesce(parents.email, ''))`, 'like', sql`${like} escape '\\'`),
          ...(digits.length >= 3 ? [eb('parents.phone', 'like', `%${digits.replace(/^0/, '')}%`)] : []),
        ]),
      );
    }
    const [{ n }] = (await q.select((eb) => eb.fn.countAll<number>().as('n')).execute()) as [{ n: number | string }];
    const rows = await q
      .select([
        ...PARENT_COLUMNS,
        sql<number>`(select count(*) from parent_links pl where pl.parent_id = parents.id)`.as('children'),
      ])
      .orderBy('parents.name')
      .orderBy('parents.id')
      .limit(limit)
      .offset(offset)
      .execute();
    return { count: Number(n), rows };
  }

  /** The children of some parents (one statement), in admission-number order. */
  childrenOf(parentIds: readonly number[], conn: Conn = this.db): Promise<LinkedChildRow[]> {
    if (!parentIds.length) return Promise.resolve([]);
    return inSlices([...parentIds], 500, (slice) =>
      conn
        .selectFrom('parent_links as pl')
        .innerJoin('students as s', 's.id', 'pl.student_id')
        .select([
          'pl.parent_id',
          'pl.student_id',
          's.admission_number',
          's.first_name',
          's.last_name',
          's.student_class as arm',
          'pl.relationship',
          'pl.source',
        ])
        .where('pl.parent_id', 'in', slice)
        .orderBy('s.admission_number')
        .execute(),
    );
  }

  /** The parents to invite: of an arm's students, or of every student (active students only); not yet invited unless `again`. */
  parentsToInvite(arm: string | undefined, again: boolean): Promise<ParentRow[]> {
    let q = this.db
      .selectFrom('parents')
      .select(PARENT_COLUMNS)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('parent_links as pl')
            .innerJoin('students as s', 's.id', 'pl.student_id')
            .select(sql`1`.as('one'))
            .whereRef('pl.parent_id', '=', 'parents.id')
            .where('s.status', '=', 'active')
            .$if(arm !== undefined, (w) => w.where('s.student_class', '=', arm!)),
        ),
      );
    if (!again) q = q.where('parents.invited_at', 'is', null);
    return q.orderBy('parents.name').orderBy('parents.id').execute();
  }

  /** Sets one-time passwords (must change at sign-in) and the invitation time, in slices. */
  async setInvited(conn: Conn, invited: { userId: number; parentId: number; hash: string }[], now: string): Promise<void> {
    for (const p of invited) {
      await conn
        .updateTable('users')
        .set((eb) => ({ password_hash: p.hash, must_change_password: 1, token_version: eb('token_version', '+', 1), updated_at: now }))
        .where('id', '=', p.userId)
        .execute();
    }
    await inSlices(invited, 500, async (slice) => {
      await conn
        .updateTable('parents')
        .set({ invited_at: now })
        .where(
          'id',
          'in',
          slice.map((p) => p.parentId),
        )
        .execute();
      return [];
    });
  }

  emailTaken(conn: Conn, email: string): Promise<boolean> {
    return conn
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst()
      .then((r) => !!r);
  }

  /** Students by admission number (exact), with their arm. */
  studentByAdmission(admissionNumber: string, conn: Conn = this.db) {
    return conn
      .selectFrom('students')
      .select(['id', 'admission_number', 'first_name', 'last_name', 'student_class as arm', 'fathers_name', 'fathers_phone', 'mothers_name', 'mothers_phone'])
      .where('admission_number', '=', admissionNumber)
      .executeTakeFirst();
  }

  /** Every student's father and mother phones, for the one-time backfill (a page at a time, by id). */
  studentsWithPhones(afterId: number, limit: number) {
    return this.db
      .selectFrom('students')
      .select(['id', 'fathers_name', 'fathers_phone', 'mothers_name', 'mothers_phone'])
      .where('id', '>', afterId)
      .where((eb) => eb.or([eb('fathers_phone', '<>', ''), eb('mothers_phone', '<>', '')]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** How many parents, links and open conflicts there are (the backfill's answer). */
  async totals(): Promise<{ parents: number; links: number; conflicts: number }> {
    const row = await this.db
      .selectNoFrom([
        sql<number>`(select count(*) from parents)`.as('parents'),
        sql<number>`(select count(*) from parent_links)`.as('links'),
        sql<number>`(select count(*) from parent_link_conflicts where resolved_at is null)`.as('conflicts'),
      ])
      .executeTakeFirstOrThrow();
    return { parents: Number(row.parents), links: Number(row.links), conflicts: Number(row.conflicts) };
  }
}
