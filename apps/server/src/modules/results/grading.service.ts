import type { Conn, Trx } from '../../db/index';
import {
  DEFAULT_SCALES,
  LEVELS,
  normalizeScale,
  REGRADE_CONFIRM_CODE,
  RESULT_MESSAGES,
  scaleRanges,
  type GradeBand,
  type GradeBandInput,
  type GradingScale,
  type GradingScalePreview,
  type GradingScaleResponse,
  type Level,
} from '@portal/domain';
import { HttpError } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { nowIso } from '../../db/index';
import type { BandRange, GradingRepository } from './grading.repository';
import type { SessionRows } from '../calendar/sessions.service';

function parseBands(json: string): GradeBand[] {
  return JSON.parse(json) as GradeBand[];
}

function ranges(bands: GradeBand[]): BandRange[] {
  return scaleRanges(bands).map(({ band, from, below }) => ({ grade: band.grade, from: Number.isFinite(from) ? from : null, below }));
}

/**
 * Grading scales per session and level. A session's results are graded with that
 * session's scale; an admin changes the CURRENT session's scale only, after a preview of how many
 * grades change and a confirmation, and the regrade is audited per result. Past sessions never
 * change. The template (`grading_scales`) follows the latest change and is where new sessions start.
 */
export class GradingService {
  constructor(
    private readonly repo: GradingRepository,
    private readonly sessions: SessionRows,
  ) {}

  /** The scales a session's results are graded with (the template where the session has none yet). */
  /** How many levels have a scale of their own in a session (what the next session's copy takes). */
  sessionCopyCount(sessionId: number, conn?: Conn): Promise<number> {
    return this.repo.sessionScaleCount(sessionId, conn);
  }

  /**
   * Copies a session's own scales into another in the caller's transaction (starting the next
   * session, docs/decisions/040), with one audit row. Returns how many were added.
   */
  async copySessionIn(trx: Trx, actor: number, from: number, to: number): Promise<number> {
    const n = await this.repo.copySessionScales(trx, from, to, actor);
    await writeAudit(trx, {
      actorUserId: actor,
      action: 'copy',
      entity: 'session_grading_scales',
      entityId: to,
      after: { from_session_id: from, levels: n },
    });
    return n;
  }

  async scales(sessionId?: number): Promise<Record<Level, GradingScale>> {
    const out: Record<Level, GradingScale> = { ...DEFAULT_SCALES };
    for (const r of await this.repo.all()) if (r.level === 'JSS' || r.level === 'SSS') out[r.level] = parseBands(r.bands);
    if (sessionId !== undefined) {
      for (const r of await this.repo.ofSession(sessionId)) if (r.level === 'JSS' || r.level === 'SSS') out[r.level] = parseBands(r.bands);
    }
    return out;
  }

  /** The scale of a level in a session, inside a saving transaction (see GradingRepository.lockedSessionBands). */
  async scaleInTransaction(trx: Trx, sessionId: number, level: Level): Promise<GradingScale> {
    const json = await this.repo.lockedSessionBands(trx, sessionId, level);
    return json ? parseBands(json) : DEFAULT_SCALES[level];
  }

  /** The scales of a session (default: the current one). */
  async list(sessionId?: number): Promise<GradingScaleResponse[]> {
    const session = sessionId !== undefined ? await this.sessions.get(sessionId) : await this.sessions.current();
    const template = await this.repo.all();
    const own = session ? await this.repo.ofSession(session.id) : [];
    return LEVELS.map((level) => {
      const row = own.find((r) => r.level === level) ?? template.find((r) => r.level === level);
      return {
        level,
        bands: row ? parseBands(row.bands) : [...DEFAULT_SCALES[level]],
        is_default: !row || row.updated_by === null,
        updated_at: row?.updated_at ?? null,
        session_id: session?.id ?? null,
        session_name: session?.name ?? null,
      };
    });
  }

  private async count(trx: Trx, sessionId: number, level: Level, bands: GradeBand[]) {
    let changes = 0;
    let released = 0;
    for (const r of ranges(bands)) {
      const c = await this.repo.countChanges(trx, sessionId, level, r);
      changes += c.changes;
      released += c.released;
    }
    return { changes, released };
  }

  /** What saving `input` as the current session's scale would regrade. Changes nothing. */
  async preview(level: Level, input: GradeBandInput[]): Promise<GradingScalePreview> {
    const bands = normalizeScale(input);
    return this.repo.transaction(async (trx) => {
      const session = await this.sessions.current(trx);
      const c = session ? await this.count(trx, session.id, level, bands) : { changes: 0, released: 0 };
      return {
        level,
        session_id: session?.id ?? null,
        session_name: session?.name ?? null,
        changes: c.changes,
        released_changes: c.released,
      };
    });
  }

  /**
   * Saves a level's scale for the current session and regrades that session's results of the level
   * in the same transaction, one set-based UPDATE per band. When grades would change, `confirm` must
   * be true: otherwise 409 with the counts (nothing saved).
   */
  async put(
    level: Level,
    input: GradeBandInput[],
    actor: number,
    confirm = false,
  ): Promise<GradingScaleResponse & { regraded: number; message: string }> {
    const bands = normalizeScale(input);
    return this.repo.transaction(async (trx) => {
      const session = await this.sessions.current(trx);
      const before = session ? await this.repo.getOfSession(session.id, level, trx) : await this.repo.get(level, trx);
      let regraded = 0;
      let updatedAt = nowIso();
      if (session) {
        const c = await this.count(trx, session.id, level, bands);
        if (c.changes > 0 && !confirm) {
          throw new HttpError(409, {
            detail: RESULT_MESSAGES.regradeNeedsConfirm(c.changes, c.released, session.name),
            code: REGRADE_CONFIRM_CODE,
            changes: c.changes,
            released_changes: c.released,
          });
        }
        updatedAt = await this.repo.putOfSession(trx, session.id, level, bands, actor);
        for (const r of ranges(bands)) regraded += await this.repo.regradeRange(trx, session.id, level, r, actor, updatedAt);
      }
      await this.repo.put(trx, level, bands, actor);
      await writeAudit(trx, {
        actorUserId: actor,
        action: 'update',
        entity: 'grading_scale',
        entityId: level,
        before: before ? parseBands(before.bands) : DEFAULT_SCALES[level],
        after: { bands, regraded, session_id: session?.id ?? null },
      });
      return {
        level,
        bands,
        is_default: false,
        updated_at: updatedAt,
        session_id: session?.id ?? null,
        session_name: session?.name ?? null,
        regraded,
        message: RESULT_MESSAGES.scaleSavedForSession(session?.name ?? 'new sessions', regraded),
      };
    });
  }
}
