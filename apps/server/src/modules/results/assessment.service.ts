import {
  ASSESSMENT_MESSAGES,
  DEFAULT_COMPONENTS,
  isStructuralChange,
  LEVELS,
  levelOfClass,
  parseStoredComponents,
  RESULT_MESSAGES,
  SCHEME_CONFIRM_CODE,
  SCHEME_LOCKED_CODE,
  type AssessmentComponent,
  type AssessmentScheme,
  type AssessmentSchemeInput,
  type AssessmentSchemePreview,
  type ComponentScores,
  type Level,
  type ScorePrecision,
  type SchemeRules,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { Conn, DB, Trx } from '../../db/index';
import { HttpError, nonFieldError } from '../../http/errors';
import type { AssessmentRepository } from './assessment.repository';
import type { SessionRows } from '../calendar/sessions.service';
import { inTransaction } from '../../db/index';

export interface StoredScheme extends SchemeRules {
  components: AssessmentComponent[];
  precision: ScorePrecision;
  is_default: boolean;
  updated_at: string | null;
}

const DEFAULT_SCHEME: StoredScheme = {
  components: [...DEFAULT_COMPONENTS],
  precision: 'one_decimal',
  is_default: true,
  updated_at: null,
};

function parseScheme(row: { components: string; precision: string; updated_at: string } | undefined): StoredScheme {
  if (!row) return DEFAULT_SCHEME;
  return {
    components: JSON.parse(row.components) as AssessmentComponent[],
    precision: row.precision === 'whole' ? 'whole' : 'one_decimal',
    is_default: false,
    updated_at: row.updated_at,
  };
}

/** Component scores as stored: JSON in the scheme's order (null for a one-score result). */
export function componentsJson(scheme: SchemeRules, scores: ComponentScores | null): string | null {
  if (!scores) return null;
  const order = new Map(scheme.components.map((c, i) => [c.label, i]));
  const rank = (label: string) => order.get(label) ?? order.size;
  const entries = Object.entries(scores).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/** Whether two stored component JSONs hold the same scores, whatever their key order. */
export function sameComponents(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  const x = parseStoredComponents(a);
  const y = parseStoredComponents(b);
  if (!x || !y) return x === y;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
}

/**
 * Assessment schemes: which components a level's scores have in a session. The only reader of
 * `assessment_schemes`; results, the score sheet and report cards ask `schemeFor`/`schemesOf`.
 */
export class AssessmentService {
  constructor(
    private readonly repo: AssessmentRepository,
    private readonly sessions: SessionRows,
  ) {}

  /** The scheme a class's results of a session are entered with (share-locked inside a save on PostgreSQL). */
  /** How many levels have a scheme of their own in a session (what the next session's copy takes). */
  async sessionCopyCount(sessionId: number, conn?: Conn): Promise<number> {
    return (await this.repo.ofSession(sessionId, conn)).length;
  }

  /**
   * Copies a session's schemes into another in the caller's transaction (starting the next session,
   * docs/decisions/040), with one audit row. Returns how many were added.
   */
  async copySessionIn(trx: Trx, actor: number, from: number, to: number): Promise<number> {
    const n = await this.repo.copySession(trx, from, to, actor);
    await writeAudit(trx, {
      actorUserId: actor,
      action: 'copy',
      entity: 'assessment_schemes',
      entityId: to,
      after: { from_session_id: from, levels: n },
    });
    return n;
  }

  async schemeFor(sessionId: number, arm: string, conn?: Conn, lock = false): Promise<StoredScheme> {
    return parseScheme(await this.repo.get(sessionId, levelOfClass(arm), conn, lock ? 'share' : null));
  }

  /** Both levels' schemes of a session, one query. */
  async schemesOf(sessionId: number, conn?: Conn): Promise<Record<Level, StoredScheme>> {
    const rows = await this.repo.ofSession(sessionId, conn);
    return {
      JSS: parseScheme(rows.find((r) => r.level === 'JSS')),
      SSS: parseScheme(rows.find((r) => r.level === 'SSS')),
    };
  }

  private async sessionOrCurrent(sessionId: number | undefined, conn?: Conn) {
    const session = sessionId !== undefined ? await this.sessions.get(sessionId, conn) : await this.sessions.current(conn);
    if (!session) throw nonFieldError(RESULT_MESSAGES.sessionNotFound);
    return session;
  }

  /** GET /api/assessment-schemes/: both levels of a session (the current one by default). */
  async list(sessionId?: number): Promise<AssessmentScheme[]> {
    const session = await this.sessionOrCurrent(sessionId);
    const [schemes, counts] = await Promise.all([this.schemesOf(session.id), this.repo.resultCounts(session.id)]);
    return LEVELS.map((level) => {
      const s = schemes[level];
      const c = counts.get(level) ?? { components: 0, totalOnly: 0 };
      return {
        level,
        session_id: session.id,
        session_name: session.name,
        components: s.components,
        precision: s.precision,
        is_default: s.is_default,
        component_results: c.components,
        total_only_results: c.totalOnly,
        updated_at: s.updated_at,
      };
    });
  }

  private async check(level: Level, input: AssessmentSchemeInput, conn: Conn, lock: boolean) {
    const session = await this.sessionOrCurrent(input.session_id, conn);
    const before = parseScheme(await this.repo.get(session.id, level, conn, lock ? 'update' : null));
    const c = (await this.repo.resultCounts(session.id, conn)).get(level) ?? { components: 0, totalOnly: 0 };
    const structural = isStructuralChange(before.components, input.components) || before.precision !== input.precision;
    const preview: AssessmentSchemePreview = {
      level,
      session_id: session.id,
      session_name: session.name,
      total_only_results: structural ? c.totalOnly : 0,
      component_results: c.components,
      structural,
      refused: structural && c.components > 0,
    };
    return { session, before, preview };
  }

  /** What saving would do, without saving. */
  async preview(level: Level, input: AssessmentSchemeInput, conn: Conn): Promise<AssessmentSchemePreview> {
    return (await this.check(level, input, conn, false)).preview;
  }

  /**
   * Saves a level's scheme for a session. Stored scores are never rescaled: once any result has
   * component scores only names may change (409 `scheme_locked`); results entered as one total keep
   * their totals and grades, after the admin confirms (409 `scheme_confirmation_required` first).
   */
  async put(level: Level, input: AssessmentSchemeInput, actor: number, db: DB): Promise<AssessmentScheme & { message: string }> {
    return inTransaction(db, async (trx) => {
      const { session, before, preview } = await this.check(level, input, trx, true);
      if (preview.refused) {
        throw new HttpError(409, {
          detail: ASSESSMENT_MESSAGES.schemeLocked(preview.component_results, level, session.name),
          code: SCHEME_LOCKED_CODE,
          ...preview,
        });
      }
      if (preview.structural && preview.total_only_results > 0 && input.confirm !== true) {
        throw new HttpError(409, {
          detail: ASSESSMENT_MESSAGES.schemeNeedsConfirm(preview.total_only_results, level, session.name),
          code: SCHEME_CONFIRM_CODE,
          ...preview,
        });
      }
      const components = input.components.map((c) => ({ name: c.name, label: c.label, max: c.max }));
      await this.repo.upsert(trx, {
        session_id: session.id,
        level,
        components: JSON.stringify(components),
        precision: input.precision,
        actor,
      });
      await writeAudit(trx, {
        actorUserId: actor,
        action: 'update',
        entity: 'assessment_scheme',
        entityId: `${session.id}:${level}`,
        before: { components: before.components, precision: before.precision },
        after: { components, precision: input.precision },
      });
      const saved = parseScheme(await this.repo.get(session.id, level, trx));
      return {
        level,
        session_id: session.id,
        session_name: session.name,
        components: saved.components,
        precision: saved.precision,
        is_default: false,
        component_results: preview.component_results,
        total_only_results: preview.total_only_results,
        updated_at: saved.updated_at,
        message: ASSESSMENT_MESSAGES.schemeSaved(level, session.name),
      };
    });
  }
}
