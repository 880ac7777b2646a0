import {
  DEFAULT_SCALES,
  LEVELS,
  normalizeScale,
  scaleRanges,
  type GradeBand,
  type GradeBandInput,
  type GradingScale,
  type GradingScaleResponse,
  type Level,
} from '@portal/domain';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { writeAudit } from '../../lib/audit';
import type { GradingRepository } from './grading.repository';

function parseBands(json: string): GradeBand[] {
  return JSON.parse(json) as GradeBand[];
}

/** Grading scales per level (stored, defaulting to grading.ts) and the consistent regrade on change. */
export class GradingService {
  constructor(private readonly repo: GradingRepository) {}

  async scales(): Promise<Record<Level, GradingScale>> {
    const rows = await this.repo.all();
    const out: Record<Level, GradingScale> = { ...DEFAULT_SCALES };
    for (const r of rows) if (r.level === 'JSS' || r.level === 'SSS') out[r.level] = parseBands(r.bands);
    return out;
  }

  /** The scale of a level inside a saving transaction (see GradingRepository.lockedBands). */
  async scaleInTransaction(trx: Transaction<Database>, level: Level): Promise<GradingScale> {
    const json = await this.repo.lockedBands(trx, level);
    return json ? parseBands(json) : DEFAULT_SCALES[level];
  }

  async list(): Promise<GradingScaleResponse[]> {
    const rows = await this.repo.all();
    return LEVELS.map((level) => {
      const row = rows.find((r) => r.level === level);
      return {
        level,
        bands: row ? parseBands(row.bands) : [...DEFAULT_SCALES[level]],
        is_default: !row || row.updated_by === null,
        updated_at: row?.updated_at ?? null,
      };
    });
  }

  /**
   * Saves a level's scale and regrades every stored result of that level in the same transaction,
   * one set-based UPDATE per band: no result is ever graded by a mix of old and new bands.
   */
  async put(level: Level, input: GradeBandInput[], actor: number): Promise<GradingScaleResponse & { regraded: number }> {
    const bands = normalizeScale(input);
    return this.repo.transaction(async (trx) => {
      const before = await this.repo.get(level, trx);
      await this.repo.put(trx, level, bands, actor);
      let regraded = 0;
      for (const { band, from, below } of scaleRanges(bands)) {
        regraded += await this.repo.regradeRange(trx, level, band.grade, Number.isFinite(from) ? from : null, below);
      }
      await writeAudit(trx, {
        actorUserId: actor,
        action: 'update',
        entity: 'grading_scale',
        entityId: level,
        before: before ? parseBands(before.bands) : DEFAULT_SCALES[level],
        after: { bands, regraded },
      });
      const row = (await this.repo.get(level, trx))!;
      return { level, bands, is_default: false, updated_at: row.updated_at, regraded };
    });
  }
}
