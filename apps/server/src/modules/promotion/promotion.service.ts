import {
  classLevelOf,
  compareArms,
  defaultArmTarget,
  nextLevelOf,
  personName,
  planCounts,
  planPromotion,
  PROMOTION_MESSAGES as M,
  type AcademicSession,
  type PlanChange,
  type PlannedStudent,
  type PlanStudent,
  type PromotionMappingEntry,
  type PromotionMoveRequest,
  type PromotionMoveResult,
  type PromotionPreview,
  type PromotionPreviewQuery,
  type PromotionRun,
  type PromotionRunRequest,
  type PromotionRunStatus,
  type PromotionRunSummary,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import { writeAudit } from '../../db/audit';
import { inTransaction, type Conn, type DB } from '../../db/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';
import type { ResultsService } from '../results/results.service';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { PeopleService } from '../people/people.service';
import type { PromotionCandidate, PromotionRepository } from './promotion.repository';

/** What promotion writes through people (class history, decision 038). */
export type PromotionPeople = Pick<PeopleService, 'recordEnrolments' | 'snapshotSession' | 'undoEnrolmentsOfRun' | 'moveStudents'>;

/** Students written per step of a run (enrolment rows, moves, students): the run's progress advances by these. */
export const PROMOTION_SLICE = 500;

interface Plan {
  preview: PromotionPreview;
  planned: PlannedStudent[];
  candidates: Map<number, PromotionCandidate>;
  leftOut: number;
}

interface Progress {
  run: PromotionRun;
  done: number;
}

const EMPTY_SUMMARY: PromotionRunSummary = { promoted: 0, trial: 0, repeat: 0, graduated: 0, left_out: 0 };

/**
 * End-of-session promotion (issue 34, decision record 039): the preview (each student's decision
 * from the third-term card, where each arm goes), the run (one all-or-nothing, audited transaction:
 * the closed session's enrolment rows, the moves, graduation), its progress while it runs, its undo
 * while the new session is empty, and a single student's move with a reason.
 */
export class PromotionService {
  /** Runs in progress in this process: their done/total, answered without the database. */
  private readonly progress = new Map<number, Progress>();
  /** Background runs, so a test or a shutdown can wait for them. */
  private readonly pending = new Set<Promise<void>>();
  /** A start between its checks and its run row (one run at a time). */
  private starting = false;

  constructor(
    private readonly db: DB,
    private readonly repo: PromotionRepository,
    private readonly people: PromotionPeople,
    private readonly results: ResultsService,
    private readonly teaching: TeachingService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    private readonly log?: FastifyBaseLogger,
  ) {}

  // ---------- preview ----------

  async preview(q: PromotionPreviewQuery | PromotionRunRequest): Promise<PromotionPreview> {
    return (await this.plan(q)).preview;
  }

  private async sessionsOf(fromId: number, toId: number): Promise<[AcademicSession, AcademicSession]> {
    const [from, to] = await Promise.all([this.sessions.byId(fromId), this.sessions.byId(toId)]);
    const errors: Record<string, string[]> = {};
    if (!from) errors.from_session_id = [M.fromSessionUnknown];
    if (!to) errors.to_session_id = [M.toSessionUnknown];
    else if (fromId === toId) errors.to_session_id = [M.sameSession];
    else if (from && isYearName(from.name) && isYearName(to.name) && to.name <= from.name) errors.to_session_id = [M.toSessionEarlier];
    if (Object.keys(errors).length) throw badRequest(errors);
    return [from!, to!];
  }

  private async plan(q: PromotionPreviewQuery | PromotionRunRequest): Promise<Plan> {
    const [from, to] = await this.sessionsOf(q.from_session_id, q.to_session_id);
    const [allArms, currentArms, streamIds, report] = await Promise.all([
      this.teaching.classNames({ includeRetired: true }),
      this.teaching.classNames(),
      this.teaching.streamIds(),
      this.settings.reportSettings(from.id),
    ]);
    if (q.arm !== undefined && !allArms.includes(q.arm)) throw badRequest({ arm: [M.armUnknown(q.arm)] });

    const rows = await this.repo.candidates(from.id, q.arm);
    const included = rows.filter((s) => s.status === 'active' && !s.enrolled);
    const leftOut = rows.filter((s) => s.status === 'withdrawn' && !s.enrolled).length;
    if (q.arm !== undefined && !included.length) throw badRequest({ arm: [M.armEmpty(q.arm)] });
    const candidates = new Map(included.map((s) => [s.id, s]));
    // Whole school: one read of the session's scores; one arm: its students' only.
    const figures = await this.results.promotionFigures(
      from.id,
      report.promotion,
      q.arm === undefined ? undefined : [...candidates.keys()],
    );

    // The mapping: each arm of the selection to its default, then the admin's entries over it.
    const fromArms = [...new Set(included.map((s) => s.student_class))].sort(compareArms);
    const mapping = new Map<string, string | null | undefined>(fromArms.map((a) => [a, defaultArmTarget(a, currentArms)]));
    const errors: Record<string, string[]> = {};
    const seen = new Set<string>();
    ('mapping' in q ? (q.mapping ?? []) : []).forEach((e, i) => {
      const fail = (field: string, message: string) => (errors[`mapping.${i}.${field}`] ??= []).push(message);
      if (seen.has(e.from_arm)) return fail('from_arm', M.mappingDuplicate(e.from_arm));
      seen.add(e.from_arm);
      if (!mapping.has(e.from_arm)) return fail('from_arm', M.mappingNotInRun(e.from_arm));
      const level = classLevelOf(e.from_arm)!;
      const next = nextLevelOf(level);
      if (!next) return e.to_arm === null ? undefined : fail('to_arm', M.mappingGraduates(e.from_arm));
      if (e.to_arm === null) return fail('to_arm', M.mappingNeedsArm(e.from_arm));
      if (!currentArms.includes(e.to_arm)) return fail('to_arm', M.armUnknown(e.to_arm));
      if (classLevelOf(e.to_arm) !== next) return fail('to_arm', M.mappingWrongLevel(e.from_arm, e.to_arm, next));
      mapping.set(e.from_arm, e.to_arm);
    });

    // The admin's per-student changes.
    const changes = new Map<number, { index: number; change: PlanChange }>();
    ('students' in q ? (q.students ?? []) : []).forEach((s, index) => {
      if (!candidates.has(s.student_id)) return void (errors[`students.${index}.student_id`] = [M.studentUnknown]);
      if (changes.has(s.student_id)) return void (errors[`students.${index}.student_id`] = [M.studentDuplicate]);
      changes.set(s.student_id, { index, change: { decision: s.decision, target_arm: s.target_arm, stream_id: s.stream_id } });
    });

    const planInput: PlanStudent[] = included.map((s) => {
      const f = figures.get(s.id);
      return {
        student_id: s.id,
        arm: s.student_class,
        stream_id: s.stream_id === null ? null : Number(s.stream_id),
        card_decision: f?.decision ?? null,
        card_source: f?.source ?? null,
      };
    });
    const planned = planPromotion({ students: planInput, arms: currentArms, streamIds, mapping, changes });
    Object.assign(errors, planned.errors);
    // A promoted student whose arm has nowhere to go: the next level has no arm at all.
    for (const s of planned.students) {
      if (s.target_arm === null && s.decision !== 'graduated') {
        const next = nextLevelOf(classLevelOf(s.arm)!) ?? '';
        errors.mapping = [...new Set([...(errors.mapping ?? []), M.noArmAtNextLevel(s.arm, next)])];
      }
    }
    if (Object.keys(errors).length) throw badRequest(errors);

    const { counts, totals } = planCounts(planned.students);
    const preview: PromotionPreview = {
      from_session: { id: from.id, name: from.name },
      to_session: { id: to.id, name: to.name },
      mapping: fromArms.map((a) => ({ from_arm: a, to_arm: mapping.get(a) ?? null }) satisfies PromotionMappingEntry),
      students: planned.students.map((p) => {
        const c = candidates.get(p.student_id)!;
        return {
          student_id: p.student_id,
          admission_number: c.admission_number,
          full_name: personName(c),
          arm: p.arm,
          annual_average: figures.get(p.student_id)?.annual_average ?? null,
          decision: p.decision,
          source: p.source,
          target_arm: p.target_arm,
          stream_id: p.stream_id,
        };
      }),
      counts,
      totals: { ...totals, left_out_withdrawn: leftOut },
    };
    return { preview, planned: planned.students, candidates, leftOut };
  }

  // ---------- the run ----------

  /**
   * Checks the request and starts the run: 202 with its id, the work continuing in the background
   * (GET the run for its progress). One run at a time for the whole school.
   */
  async start(body: PromotionRunRequest, actorUserId: number): Promise<{ id: number }> {
    if (this.progress.size || (await this.repo.hasRunning())) throw conflict(M.alreadyRunning);
    const plan = await this.plan(body);
    if (!plan.planned.length) throw badRequest({ non_field_errors: [M.nothingToPromote] });
    const { preview } = plan;
    const summary: PromotionRunSummary = {
      promoted: preview.totals.promoted,
      trial: preview.totals.trial,
      repeat: preview.totals.repeat,
      graduated: preview.totals.graduated,
      left_out: preview.totals.left_out_withdrawn,
    };
    // Reserved before the next await: two starts in this process never both pass.
    if (this.progress.size || this.starting) throw conflict(M.alreadyRunning);
    this.starting = true;
    let id: number;
    try {
      id = await this.repo.insertRun(this.db, {
        from_session_id: body.from_session_id,
        to_session_id: body.to_session_id,
        arm: body.arm ?? null,
        total: plan.planned.length,
        summary: JSON.stringify(summary),
        request: JSON.stringify({ mapping: preview.mapping, students: body.students ?? [] }),
        created_by: actorUserId,
      });
    } finally {
      this.starting = false;
    }
    const run: PromotionRun = {
      id,
      status: 'running',
      done: 0,
      total: plan.planned.length,
      summary,
      arm: body.arm ?? null,
      from_session: preview.from_session,
      to_session: preview.to_session,
      created_at: new Date().toISOString(),
      created_by: null,
      undoable: false,
    };
    this.progress.set(id, { run, done: 0 });
    const work = this.apply(id, plan, summary, actorUserId)
      .catch(async (err: unknown) => {
        this.log?.error({ err, run: id }, 'promotion run failed: rolled back');
        await this.repo
          .finishRun(this.db, id, { status: 'failed', error: String(err instanceof Error ? err.message : err) })
          .catch(() => {});
      })
      .finally(() => {
        this.progress.delete(id);
        this.pending.delete(work);
      });
    this.pending.add(work);
    return { id };
  }

  /** Waits for the runs in progress (tests; a graceful shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /**
   * The run itself, ONE transaction: per slice of students, their enrolment rows in the closed
   * session (their arm there and outcome), their moves (for the undo), and the students moved
   * (graduates become alumni); then the audit row and the run marked done. Any failure rolls all of
   * it back and the run is marked failed.
   */
  private async apply(id: number, plan: Plan, summary: PromotionRunSummary, actorUserId: number): Promise<void> {
    const fromId = plan.preview.from_session.id;
    await inTransaction(this.db, async (trx) => {
      const entry = this.progress.get(id)!;
      for (let i = 0; i < plan.planned.length; i += PROMOTION_SLICE) {
        const slice = plan.planned.slice(i, i + PROMOTION_SLICE);
        await this.people.recordEnrolments(
          trx,
          slice.map((p) => ({
            student_id: p.student_id,
            session_id: fromId,
            student_class: p.arm,
            stream_id: plan.candidates.get(p.student_id)!.stream_id,
            outcome: p.decision,
            run_id: id,
          })),
        );
        await this.repo.insertMoves(
          trx,
          slice.map((p) => {
            const c = plan.candidates.get(p.student_id)!;
            return {
              run_id: id,
              student_id: p.student_id,
              outcome: p.decision,
              from_class: c.student_class,
              from_stream_id: c.stream_id,
              from_status: c.status,
              to_class: p.target_arm ?? p.arm,
              to_stream_id: p.stream_id,
              to_status: p.decision === 'graduated' ? 'graduated' : 'active',
              reason: null,
              created_by: actorUserId,
            };
          }),
        );
        await this.people.moveStudents(
          trx,
          slice.map((p) => ({
            student_id: p.student_id,
            // A graduate keeps their last arm (records and the transcript read it).
            student_class: p.target_arm ?? p.arm,
            stream_id: p.stream_id,
            status: p.decision === 'graduated' ? 'graduated' : 'active',
          })),
        );
        entry.done = Math.min(plan.planned.length, i + slice.length);
      }
      // A one-arm run closes the session for the arms not promoted yet too: their rosters there stay whole.
      await this.people.snapshotSession(trx, fromId, id);
      await writeAudit(trx, {
        actorUserId,
        action: 'promote',
        entity: 'promotion_run',
        entityId: id,
        after: {
          ...summary,
          from_session: plan.preview.from_session.name,
          to_session: plan.preview.to_session.name,
          mapping: plan.preview.mapping,
        },
      });
      await this.repo.finishRun(trx, id, { status: 'done' });
    });
  }

  // ---------- runs ----------

  async get(id: number): Promise<PromotionRun> {
    const live = this.progress.get(id);
    if (live) return { ...live.run, done: live.done };
    const row = await this.repo.run(id);
    if (!row) throw notFound(M.runNotFound);
    const names = await this.sessionNames();
    return this.present(row, names, new Map());
  }

  async list(): Promise<PromotionRun[]> {
    const [rows, names] = await Promise.all([this.repo.runs(), this.sessionNames()]);
    const activity = new Map<number, Promise<string | null>>();
    return Promise.all(
      rows.map(async (r): Promise<PromotionRun> => {
        const live = this.progress.get(Number(r.id));
        return live ? { ...live.run, done: live.done } : this.present(r, names, activity);
      }),
    );
  }

  private async sessionNames(): Promise<Map<number, string>> {
    return new Map((await this.sessions.list()).map((s) => [s.id, s.name]));
  }

  /** Why the run can no longer be undone (the new session's scores, registers or payments), or null. */
  private async undoBlocked(runId: number, toSessionId: number, conn: Conn = this.db): Promise<string | null> {
    const a = await this.repo.sessionActivity(toSessionId, conn);
    const what = [a.scores && 'scores', a.registers && 'registers', a.payments && 'payments'].filter(Boolean) as string[];
    if (what.length) return M.undoBlocked(what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1)}` : what[0]!);
    if (await this.repo.laterRunMoves(runId, conn)) return M.undoLaterRun;
    return null;
  }

  private async present(
    r: NonNullable<Awaited<ReturnType<PromotionRepository['run']>>>,
    names: Map<number, string>,
    activity: Map<number, Promise<string | null>>,
  ): Promise<PromotionRun> {
    // A run still marked running that this process is not running was cut short (a restart): its transaction rolled back.
    const status: PromotionRunStatus = r.status === 'running' ? 'failed' : (r.status as PromotionRunStatus);
    const total = Number(r.total);
    const out: PromotionRun = {
      id: Number(r.id),
      status,
      done: status === 'done' || status === 'undone' ? total : 0,
      total,
      summary: { ...EMPTY_SUMMARY, ...(JSON.parse(r.summary) as Partial<PromotionRunSummary>) },
      arm: r.arm,
      from_session: { id: r.from_session_id, name: names.get(r.from_session_id) ?? '' },
      to_session: { id: r.to_session_id, name: names.get(r.to_session_id) ?? '' },
      created_at: r.created_at,
      created_by: r.created_by_name,
      undoable: false,
    };
    if (status === 'done') {
      const key = Number(r.id);
      if (!activity.has(key)) activity.set(key, this.undoBlocked(key, r.to_session_id));
      const blocked = await activity.get(key)!;
      out.undoable = blocked === null;
      if (blocked) out.undo_blocked_reason = blocked;
    }
    return out;
  }

  /**
   * Undoes a finished run while the new session has no scores, registers or payments: every student
   * back where the run found them, the closed session's enrolment rows of the run removed, the run
   * marked undone, audited; one transaction. 409 with the reason otherwise.
   */
  async undo(id: number, actorUserId: number): Promise<PromotionRun> {
    if (this.progress.has(id)) throw conflict(M.notUndoable('running'));
    const run = await this.repo.run(id);
    if (!run) throw notFound(M.runNotFound);
    await inTransaction(this.db, async (trx) => {
      const locked = await this.repo.runForUpdate(trx, id);
      if (!locked || locked.status !== 'done')
        throw conflict(M.notUndoable(locked?.status === 'running' ? 'failed' : (locked?.status ?? 'failed')));
      const blocked = await this.undoBlocked(id, locked.to_session_id, trx);
      if (blocked) throw conflict(blocked);
      const moves = await this.repo.movesOfRun(id, trx);
      await this.people.moveStudents(
        trx,
        moves.map((m) => ({
          student_id: m.student_id,
          student_class: m.from_class,
          stream_id: m.from_stream_id,
          status: m.from_status === 'graduated' ? 'graduated' : 'active',
        })),
      );
      await this.people.undoEnrolmentsOfRun(trx, id, locked.from_session_id);
      await this.repo.markUndone(trx, id, actorUserId);
      await writeAudit(trx, { actorUserId, action: 'undo', entity: 'promotion_run', entityId: id, after: { students: moves.length } });
    });
    return this.get(id);
  }

  // ---------- a single student's move ----------

  /** Moves one current student to another arm (and stream) with a reason, audited: the way after the undo is closed. */
  async move(body: PromotionMoveRequest, actorUserId: number): Promise<PromotionMoveResult> {
    const student = await this.repo.student(body.admission_number.toUpperCase());
    if (!student) throw badRequest({ admission_number: [M.studentNotFound] });
    if (student.status !== 'active') throw badRequest({ admission_number: [M.studentNotActive] });
    await this.teaching.assertClass(body.to_arm, { field: 'to_arm', current: true, unknownMessage: M.armUnknown(body.to_arm) });
    const currentStream = student.stream_id === null ? null : Number(student.stream_id);
    const senior = classLevelOf(body.to_arm)?.startsWith('SSS') ?? false;
    let stream = body.stream_id !== undefined ? body.stream_id : currentStream;
    if (body.stream_id !== undefined && body.stream_id !== null) {
      if (!(await this.teaching.streamIds()).has(body.stream_id)) throw badRequest({ stream_id: [M.streamUnknown] });
      if (!senior) throw badRequest({ stream_id: [M.streamSeniorOnly] });
    }
    if (!senior) stream = null;
    if (body.to_arm === student.student_class && stream === currentStream) throw badRequest({ to_arm: [M.sameArm(body.to_arm)] });
    const name = personName(student);
    await inTransaction(this.db, async (trx) => {
      await this.people.moveStudents(trx, [{ student_id: student.id, student_class: body.to_arm, stream_id: stream, status: 'active' }]);
      await this.repo.insertMoves(trx, [
        {
          run_id: null,
          student_id: student.id,
          outcome: 'moved',
          from_class: student.student_class,
          from_stream_id: currentStream,
          from_status: 'active',
          to_class: body.to_arm,
          to_stream_id: stream,
          to_status: 'active',
          reason: body.reason,
          created_by: actorUserId,
        },
      ]);
      await writeAudit(trx, {
        actorUserId,
        action: 'move',
        entity: 'student',
        entityId: student.admission_number,
        before: { student_class: student.student_class, stream_id: currentStream },
        after: { student_class: body.to_arm, stream_id: stream, reason: body.reason },
      });
    });
    return {
      admission_number: student.admission_number,
      full_name: name,
      from_arm: student.student_class,
      to_arm: body.to_arm,
      stream_id: stream,
      detail: M.moved(name, body.to_arm),
    };
  }
}

function isYearName(name: string): boolean {
  return /^\d{4}\/\d{4}$/.test(name);
}
