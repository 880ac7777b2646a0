import { sql, type Kysely } from 'kysely';
import { logoForPdf, normaliseLogo } from '../../modules/settings/logo';
import type { DialectMigration } from './util';

/** Logos stored before this release may be up to this size: each is decoded once, here, and never again. */
const LEGACY_MAX_PIXELS = 8192;
const BACKUP_KEY = 'school_logo_before_0010';

/**
 * A logo stored by an earlier release may be any size (a 6000×6000 PNG made every
 * report card take seconds). It is replaced by the small normalised PNG that uploads now store; the
 * original is kept, untouched, under its own settings key, so nothing stored is lost. A logo that
 * cannot be read (or is beyond LEGACY_MAX_PIXELS) is left out of the pages and PDFs, and kept there too.
 */
export const inputLogos: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    const rows = await sql<{ value: string }>`select value from settings where key = 'school'`.execute(db);
    const value = rows.rows[0]?.value;
    if (!value) return;
    let settings: Record<string, unknown>;
    try {
      settings = JSON.parse(value) as Record<string, unknown>;
    } catch {
      return;
    }
    const logo = settings.logo;
    if (typeof logo !== 'string' || !/^data:image\/(png|jpeg);/.test(logo) || logoIsSmallPng(logo)) return;
    const result = normaliseLogo(logo, LEGACY_MAX_PIXELS);
    const next = JSON.stringify({ ...settings, logo: result.ok ? result.logo : '' });
    await sql`insert into settings (key, value) values (${BACKUP_KEY}, ${value})`.execute(db);
    await sql`update settings set value = ${next} where key = 'school'`.execute(db);
  },
});

function logoIsSmallPng(logo: string): boolean {
  return logo.startsWith('data:image/png;') && logoForPdf(logo) !== undefined;
}
