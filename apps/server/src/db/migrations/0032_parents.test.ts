import { describe, expect, it } from 'vitest';
import type { ParentConflict } from '@portal/domain';
import { migrateToLatest } from '../index';
import { describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0032 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row of every table, adds the empty parents tables, and the backfill links the old students', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    expect(await upgrade.countRows(handle, ['parents', 'parent_links', 'parent_link_conflicts'])).toEqual({
      parents: 0,
      parent_links: 0,
      parent_link_conflicts: 0,
    });
    const students = await handle.db.selectFrom('students').select(['id', 'fathers_phone', 'mothers_phone']).execute();
    expect(students.length).toBeGreaterThan(0);
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const res = await app.inject({ method: 'POST', url: '/api/parents/backfill/', headers: auth, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ students: number; parents: number; links: number; conflicts: number }>();
    expect(body.students).toBe(students.filter((s) => s.fathers_phone || s.mothers_phone).length);
    expect(body.links + body.conflicts).toBeGreaterThan(0);
    // Every link is to a student whose form gives the parent's phone; conflicts are listed, not merged.
    const links = await handle.db
      .selectFrom('parent_links as l')
      .innerJoin('parents as p', 'p.id', 'l.parent_id')
      .innerJoin('students as s', 's.id', 'l.student_id')
      .select(['p.phone', 's.fathers_phone', 's.mothers_phone'])
      .execute();
    for (const l of links)
      expect([l.fathers_phone, l.mothers_phone].map((x) => x.replace(/\D/g, '').slice(-10))).toContain(l.phone.slice(-10));
    const conflicts = await app.inject({ method: 'GET', url: '/api/parents/conflicts/', headers: auth });
    expect(conflicts.json<{ results: ParentConflict[] }>().results.reduce((n, c) => n + c.students.length, 0)).toBe(body.conflicts);
  });
});

describeEachDatabase('migration 0032: parents, their links and conflicts', (dialect) => {
  it('upgrades a database of 0031 with students; one parent per phone; a link pair once', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0031_one_term_table', cleanups);
    const a = await upgrade.oldStudent(handle, 'JSS 1A', 1);
    const b = await upgrade.oldStudent(handle, 'JSS 1B', 2);
    await migrateToLatest(handle);
    const now = new Date().toISOString();
    const users = await handle.db
      .insertInto('users')
      .values(
        [1, 2].map((i) => ({
          role: 'parent' as const,
          email: null,
          password_hash: '!',
          must_change_password: 1,
          disabled: 0,
          token_version: 0,
          created_at: now,
          updated_at: now + i,
        })),
      )
      .returning('id')
      .execute();
    const [p] = await handle.db
      .insertInto('parents')
      .values({ user_id: users[0]!.id, name: 'Old Parent', phone: '+2348030000001', email: null, created_at: now })
      .returning('id')
      .execute();
    // The phone is one parent's.
    await expect(
      handle.db
        .insertInto('parents')
        .values({ user_id: users[1]!.id, name: 'Someone', phone: '+2348030000001', email: null, created_at: now })
        .execute(),
    ).rejects.toThrow();
    await handle.db
      .insertInto('parent_links')
      .values(
        [a.id, b.id].map((student_id) => ({
          parent_id: p!.id,
          student_id,
          relationship: 'father' as const,
          source: 'admin' as const,
          created_at: now,
        })),
      )
      .execute();
    await expect(
      handle.db
        .insertInto('parent_links')
        .values({ parent_id: p!.id, student_id: a.id, relationship: 'mother', source: 'admin', created_at: now })
        .execute(),
    ).rejects.toThrow();
    expect(await upgrade.countRows(handle, ['parent_links'])).toEqual({ parent_links: 2 });
  });
});
