import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/** Users, auth, settings, audit, sessions, the people tables and results: the base every feature uses. */
export const foundation: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('admins'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('refresh_tokens'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
    await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();

    await db.schema
      .createTable('login_throttle')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_start', 'text', (c) => c.notNull())
      .addColumn('blocked_until', 'text')
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('audit_log'), dialect)
      .addColumn('actor_user_id', 'integer')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_entity').on('audit_log').columns(['entity', 'entity_id']).execute();

    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'integer', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('academic_sessions'), dialect)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('students'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('admission_number', 'text', (c) => c.notNull().unique())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('gender', 'text')
      .addColumn('date_of_birth', 'text')
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('fathers_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('fathers_phone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('mothers_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('mothers_phone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('home_address', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('students_class').on('students').columns(['student_class', 'last_name', 'first_name']).execute();

    await withId(db.schema.createTable('staff'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('staff_id', 'text', (c) => c.notNull().unique())
      .addColumn('username', 'text', (c) => c.unique())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('gender', 'text')
      .addColumn('designation', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('department', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('marital_status', 'text')
      .addColumn('qualifications', 'text')
      .addColumn('employment_date', 'text')
      .addColumn('bank_account', 'text')
      .addColumn('tax_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('results'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id'))
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('score', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
      .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('grade', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_by', 'integer')
      .addColumn('updated_by', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('results_one_per_subject', ['student_id', 'session_id', 'term', 'subject'])
      .execute();
    await db.schema.createIndex('results_class_term').on('results').columns(['session_id', 'term', 'student_class']).execute();

    await withId(db.schema.createTable('attendance'), dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('attendance_student').on('attendance').column('student_id').execute();
  },
});
