import {
  type AdmissionPage,
  DEFAULT_SCHOOL_SETTINGS,
  LOGO_MESSAGES,
  type AttendanceSettings,
  RATING_DOMAINS,
  REPORT_MESSAGES,
  traitIdFor,
  type ReportSettings,
  type ReportSettingsInput,
  type SchoolSettings,
} from '@portal/domain';
import type { Conn, DB, Trx } from '../../db/index';
import { badRequest, conflict } from '../../http/errors';
import { createHash } from 'node:crypto';
import { writeAudit } from '../../db/audit';
import { normaliseLogo } from './logo';
import {
  ADMISSION_SETTING,
  ATTENDANCE_SETTING,
  type JsonSetting,
  REPORT_SETTING,
  SCHOOL_SETTING,
  SettingsRepository,
} from './settings.repository';
import { inTransaction } from '../../db/index';

const withoutImage = (s: SchoolSettings) => ({ ...s, logo: s.logo ? '[image]' : '' });
/** The audit keeps whether an image was there, not its bytes. */
const withoutImages = (s: ReportSettings) => ({ ...s, signature: s.signature ? '[image]' : '', stamp: s.stamp ? '[image]' : '' });

/** The report card settings' entity tag: what they are, and whose cards they are (the current session). */
function reportSettingsTag(settings: ReportSettings, currentSessionId: number | undefined): string {
  const hash = createHash('sha256')
    .update(`${currentSessionId ?? 0}\n${JSON.stringify(settings)}`)
    .digest('base64url');
  return `"${hash.slice(0, 22)}"`;
}

/**
 * Replaces one JSON settings row and writes its audit entry in `trx`: what every settings save ends
 * with. `audited`: how the audit log keeps a value (images as a marker); the value itself by default.
 */
async function replaceAudited<T>(
  trx: Trx,
  actorUserId: number,
  setting: JsonSetting<T>,
  value: T,
  audited: (value: T) => unknown = (v) => v,
): Promise<T> {
  const repo = new SettingsRepository(trx);
  const before = await repo.readJson(setting);
  await repo.writeJson(setting, value);
  await writeAudit(trx, {
    actorUserId,
    action: 'update',
    entity: 'settings',
    entityId: setting.key,
    before: audited(before),
    after: audited(value),
  });
  return value;
}

/** A signature or stamp normalised as the logo is (re-encoded, bounded pixels), or the field's 400 message. */
function normaliseCardImage(dataUrl: string): { ok: true; image: string } | { ok: false; message: string } {
  const result = normaliseLogo(dataUrl);
  if (result.ok) return { ok: true, image: result.logo };
  return { ok: false, message: result.message === LOGO_MESSAGES.tooLarge ? REPORT_MESSAGES.imageTooLarge : REPORT_MESSAGES.imageInvalid };
}

/**
 * School settings: read (checked against the schema) only through SettingsRepository; written here,
 * the row and its audit entry in one transaction. The logo is checked and normalised once, on upload.
 */
export class SettingsService {
  constructor(
    private readonly db: DB,
    private readonly repo: SettingsRepository,
    /** Every subject name of the catalogue, retired ones too (teaching's, given by the composition root). */
    private readonly catalogueNames: () => Promise<readonly string[]>,
    /**
     * The current session's id (the calendar's, given by the composition root): today's settings are
     * its cards'. In a transaction it holds the session rows, so no switch runs across a save.
     */
    private readonly currentSessionId: (trx?: Trx) => Promise<number | undefined>,
  ) {}

  get(): Promise<SchoolSettings> {
    return this.repo.get();
  }

  /** The school's time zone, read in the caller's transaction (a payment's day is the school's date). */
  async timeZoneIn(conn: Conn): Promise<string> {
    return (await schoolSettingsIn(conn)).time_zone || DEFAULT_SCHOOL_SETTINGS.time_zone;
  }

  /**
   * The report card settings (defaults until the admin saves them; written by `updateReport`). With
   * `sessionId`, those of that session's cards: the ones it ended with once another session became
   * current, else today's (decision 058).
   */
  reportSettings(sessionId?: number): Promise<ReportSettings> {
    return sessionId === undefined ? this.repo.getReport() : this.repo.reportOf(sessionId);
  }

  /**
   * Today's report card settings with their entity tag (the ETag of `GET /api/report-settings/`,
   * decision 059): it changes when they are saved and when another session becomes current, so a
   * form opened before either cannot save over them unseen.
   */
  async taggedReportSettings(): Promise<{ settings: ReportSettings; tag: string }> {
    const [settings, sessionId] = await Promise.all([this.repo.getReport(), this.currentSessionId()]);
    return { settings, tag: reportSettingsTag(settings, sessionId) };
  }

  /**
   * When session `enteringId` becomes the current one, in the caller's transaction (decision 058):
   * the session leaving keeps today's report card settings as the ones it ended with, and a session
   * coming back gets its own again, as today's. So the settings screen always edits the current
   * session's cards, and no other session's card changes. Audited when today's settings change.
   */
  async handOverReportSettingsIn(trx: Trx, actorUserId: number, leavingId: number | undefined, enteringId: number): Promise<void> {
    if (leavingId === enteringId) return;
    const repo = new SettingsRepository(trx);
    const today = await repo.getReport();
    if (leavingId !== undefined) await repo.putSessionReport(leavingId, today);
    const own = await repo.sessionReport(enteringId);
    if (!own) return;
    await repo.deleteSessionReport(enteringId);
    if (JSON.stringify(own) !== JSON.stringify(today)) await replaceAudited(trx, actorUserId, REPORT_SETTING, own, withoutImages);
  }

  /** The attendance register's settings (defaults until the admin saves them). */
  attendanceSettings(): Promise<AttendanceSettings> {
    return this.repo.getAttendance();
  }

  /**
   * Writes the attendance settings and their audit row in the caller's transaction: the attendance
   * service checks its own rule (registers a day locked once a term has registers) in the same one.
   */
  async putAttendance(trx: Trx, actorUserId: number, settings: AttendanceSettings): Promise<AttendanceSettings> {
    return replaceAudited(trx, actorUserId, ATTENDANCE_SETTING, settings);
  }

  /**
   * Saves the report card settings: a new trait gets a stable id from its name (an existing one keeps
   * its id, so its ratings follow a rename); changed signature and stamp images are normalised as the
   * logo is. The row and its audit entry in one transaction.
   */
  async updateReport(
    actorUserId: number,
    input: ReportSettingsInput,
    /** The request's If-Match, when it has one: whether it names the settings' tag before the save. */
    ifMatch?: (tag: string) => boolean,
  ): Promise<{ settings: ReportSettings; tag: string }> {
    const stored = await this.repo.getReport();
    const errors: Record<string, string[]> = {};
    const images = { signature: input.signature, stamp: input.stamp };
    for (const key of ['signature', 'stamp'] as const) {
      // An unchanged image was normalised when it was stored: not decoded again.
      if (input[key] === stored[key]) continue;
      const result = normaliseCardImage(input[key]);
      if (result.ok) images[key] = result.image;
      else errors[key] = [result.message];
    }
    // The rule compares names with the scores': a name no subject has would hold no one to it.
    const catalogue = new Set(await this.catalogueNames());
    const unknown = input.promotion.required_subjects.filter((s) => !catalogue.has(s));
    if (unknown.length) errors['promotion.required_subjects'] = unknown.map((s) => REPORT_MESSAGES.requiredSubjectUnknown(s));
    if (Object.keys(errors).length) throw badRequest(errors);
    // Ids are unique across both lists: a rating is stored by id alone.
    const taken = new Set(RATING_DOMAINS.flatMap((d) => input.traits[d].flatMap((t) => (t.id ? [t.id] : []))));
    const traits = Object.fromEntries(
      RATING_DOMAINS.map((d) => [
        d,
        input.traits[d].map((t) => {
          const id = t.id ?? traitIdFor(t.name, taken);
          taken.add(id);
          return { id, name: t.name };
        }),
      ]),
    ) as ReportSettings['traits'];
    const settings: ReportSettings = { ...input, traits, ...images };
    return inTransaction(this.db, async (trx) => {
      // A form opened over other settings, or another session's, would overwrite them unseen.
      const sessionId = await this.currentSessionId(trx);
      const before = reportSettingsTag(await new SettingsRepository(trx).getReport(), sessionId);
      if (ifMatch && !ifMatch(before)) throw conflict(REPORT_MESSAGES.settingsChangedMeanwhile);
      const saved = await replaceAudited(trx, actorUserId, REPORT_SETTING, settings, withoutImages);
      return { settings: saved, tag: reportSettingsTag(saved, sessionId) };
    });
  }

  /**
   * A subject renamed in the catalogue, in the renaming transaction (teaching): the promotion rule
   * names its required subjects as the scores do, so the rule follows the rename in today's settings
   * and in every session's kept ones. Without it a renamed required subject silently stops being
   * required ("a student not taking one is not held to it"). Audited where something changed.
   */
  async renameRequiredSubjectIn(trx: Trx, actorUserId: number, from: string, to: string): Promise<void> {
    const renamed = (s: ReportSettings): ReportSettings | null => {
      const required = s.promotion.required_subjects;
      if (!required.includes(from)) return null;
      return { ...s, promotion: { ...s.promotion, required_subjects: [...new Set(required.map((x) => (x === from ? to : x)))] } };
    };
    const repo = new SettingsRepository(trx);
    const today = renamed(await repo.getReport());
    if (today) await replaceAudited(trx, actorUserId, REPORT_SETTING, today, withoutImages);
    const sessions: number[] = [];
    for (const kept of await repo.sessionReports()) {
      const next = renamed(kept.settings);
      if (!next) continue;
      await repo.putSessionReport(kept.session_id, next);
      sessions.push(kept.session_id);
    }
    if (sessions.length)
      await writeAudit(trx, {
        actorUserId,
        action: 'update',
        entity: 'session_report_settings',
        entityId: sessions.join(','),
        before: { required_subject: from },
        after: { required_subject: to },
      });
  }

  /** The public admission page's text (the default text until the admin saves the school's own). */
  admissionPage(): Promise<AdmissionPage> {
    return this.repo.getAdmission();
  }

  async updateAdmission(actorUserId: number, page: AdmissionPage): Promise<AdmissionPage> {
    return inTransaction(this.db, (trx) => replaceAudited(trx, actorUserId, ADMISSION_SETTING, page));
  }

  /** Whether an admin hid the first-run checklist (setup module). */
  setupDismissed(): Promise<boolean> {
    return this.repo.setupDismissed();
  }

  async dismissSetup(actorUserId: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await new SettingsRepository(trx).dismissSetup();
      await writeAudit(trx, {
        actorUserId,
        action: 'update',
        entity: 'settings',
        entityId: 'setup_checklist',
        before: null,
        after: { dismissed: true },
      });
    });
  }

  async update(actorUserId: number, input: SchoolSettings): Promise<SchoolSettings> {
    const stored = await this.repo.get();
    // An unchanged logo is not decoded again: it was normalised when it was stored. Decoding runs
    // before the transaction opens, so no lock is held while an image is shrunk.
    let logo = input.logo;
    if (logo !== stored.logo) {
      const result = normaliseLogo(logo);
      if (!result.ok) throw badRequest({ logo: [result.message] });
      logo = result.logo;
    }
    const settings = { ...input, logo };
    return inTransaction(this.db, (trx) => replaceAudited(trx, actorUserId, SCHOOL_SETTING, settings, withoutImage));
  }
}

/**
 * The school's settings read in the caller's connection or transaction (an admission number's format
 * is read in the transaction that allocates it): the settings module's read port for other modules.
 */
export function schoolSettingsIn(conn: Conn): Promise<SchoolSettings> {
  return new SettingsRepository(conn).get();
}
