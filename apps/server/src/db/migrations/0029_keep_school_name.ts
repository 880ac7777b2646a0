import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Until this release a school that never saved its settings was shown under the spec's sample
 * school's name and details (issue 31.15); a new install is now neutral ("School portal") until its
 * admin saves. A database already in use (it holds staff or students) with no saved settings keeps
 * what it showed: those old defaults are stored as its settings, frozen here so that later changes
 * to the domain's defaults never reach back into this upgrade. A new (empty) database gets nothing.
 */
const SHOWN_BEFORE = {
  school_name: 'Role Models College',
  motto: 'raising role models',
  address: '12 School Road, Ikeja, Lagos',
  phone: '+234 801 234 5678',
  email: 'info@rolemodels.school',
  logo: '',
  founded_year: 1999,
  registered_year: 2002,
  first_graduation_year: 2008,
  admission_number_format: 'STU-{NNNN}',
  admission_url: '',
  about: 'A community of learners from nursery to senior secondary, where every child is known, challenged and raised to be a role model.',
  time_zone: 'Africa/Lagos',
};

export const keepSchoolName: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ saved: number | boolean; people: number | boolean }>`select
        exists (select 1 from settings where key = 'school') as saved,
        (exists (select 1 from staff) or exists (select 1 from students)) as people`.execute(db);
    const yes = (v: unknown) => v === true || Number(v) === 1;
    if (yes(rows[0]?.saved) || !yes(rows[0]?.people)) return;
    await sql`insert into settings (key, value) values ('school', ${JSON.stringify(SHOWN_BEFORE)})`.execute(db);
  },
});
