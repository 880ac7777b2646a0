import {
  ROLLOVER_MESSAGES,
  nextSessionName,
  percentToBasisPoints,
  proposedTerms,
  type RolloverInput,
  type RolloverPreview,
  type RolloverResult,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import { inTransaction, type DB } from '../../db/index';
import { badRequest, conflict } from '../../http/errors';
import type { CalendarEditService } from '../calendar/calendar-edit.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { FeesService } from '../payments/fees.service';
import type { AssessmentService } from '../results/assessment.service';
import type { GradingService } from '../results/grading.service';
import type { AssignmentsService } from '../teaching/assignments.service';

/**
 * Starting the next session (issue 34 item 5, docs/decisions/040): the preview (the proposed name,
 * the three terms a year on, what each copy would take) and the step itself. The step is ONE
 * transaction: the session, its terms and every ticked copy stand or fall together. It owns no
 * table: each copy is its owning module's service method, run in this step's transaction.
 */
export class RolloverService {
  constructor(
    private readonly db: DB,
    private readonly sessions: SessionsService,
    private readonly calendarEdits: CalendarEditService,
    private readonly fees: FeesService,
    private readonly assessment: AssessmentService,
    private readonly grading: GradingService,
    private readonly assignments: AssignmentsService,
  ) {}

  /** The session to start from: the one named, else the current (or newest); 400 when there is none. */
  private async from(id: number | undefined) {
    const s = id === undefined ? await this.sessions.currentOrLatest() : await this.sessions.byId(id);
    if (!s) throw badRequest({ from_session_id: [ROLLOVER_MESSAGES.fromSessionRequired] });
    return s;
  }

  async preview(fromSessionId: number | undefined): Promise<RolloverPreview> {
    const from = await this.from(fromSessionId);
    const name = nextSessionName(from.name) ?? from.name;
    const pattern = await this.calendarEdits.sessionPattern(from.id);
    const [events, fees, schemes, scales, teaching] = await Promise.all([
      this.calendarEdits.eventCountWithin(pattern),
      this.fees.sessionCopyCount(from.id),
      this.assessment.sessionCopyCount(from.id),
      this.grading.sessionCopyCount(from.id),
      this.assignments.copyCounts(from.id),
    ]);
    return {
      from_session: { id: from.id, name: from.name },
      name,
      terms: proposedTerms(pattern, name),
      copies: {
        calendar_events: { count: events },
        fee_items: { count: fees },
        assessment_schemes: { count: schemes },
        grading_scales: { count: scales },
        // The school's settings, not a session's: the new session reads them as they are (decision 040).
        report_card_settings: { count: 1, school_wide: true },
        teaching_assignments: { count: teaching.assignments },
        form_teachers: { count: teaching.formTeachers },
        enforcement_and_windows: { count: teaching.windowsAndEnforcement },
      },
    };
  }

  async apply(actor: { id: number }, input: RolloverInput): Promise<RolloverResult> {
    const from = await this.from(input.from_session_id);
    // Read before the transaction: SQLite has one connection, held by the transaction.
    const all = await this.sessions.list();
    if (all.some((s) => s.name === input.name)) throw conflict(ROLLOVER_MESSAGES.nameTaken(input.name));
    const nameOf = new Map(all.map((s) => [s.id, s.name]));
    const c = input.copy;
    const basisPoints = percentToBasisPoints(c.fee_increase_percent ?? 0);
    try {
      return await inTransaction(this.db, async (trx) => {
        const session = await this.sessions.createIn(
          trx,
          input.name,
          input.make_current,
          actor.id,
          ROLLOVER_MESSAGES.nameTaken(input.name),
        );
        nameOf.set(session.id, session.name);
        await this.calendarEdits.putSessionTermsIn(
          trx,
          actor,
          session.id,
          input.terms.map((t) => ({
            term: t.term,
            starts_on: t.starts_on,
            ends_on: t.ends_on,
            next_term_begins: t.next_term_begins ?? null,
          })),
          nameOf,
        );
        const events = c.calendar_events ? await this.calendarEdits.copySessionEventsIn(trx, actor, from.id, session.id, input.terms) : 0;
        const fees = c.fee_items ? await this.fees.copySessionIn(trx, actor, from.id, session.id, basisPoints) : 0;
        const schemes = c.assessment_schemes ? await this.assessment.copySessionIn(trx, actor.id, from.id, session.id) : 0;
        const scales = c.grading_scales ? await this.grading.copySessionIn(trx, actor.id, from.id, session.id) : 0;
        const teaching =
          c.teaching_assignments || c.form_teachers || c.enforcement_and_windows
            ? await this.assignments.copySessionIn(trx, actor, from.id, session.id, {
                assignments: c.teaching_assignments,
                formTeachers: c.form_teachers,
                windowsAndEnforcement: c.enforcement_and_windows,
              })
            : { assignments: 0, formTeachers: 0, windowsAndEnforcement: 0 };
        const copied: RolloverResult['copied'] = {
          calendar_events: events,
          fee_items: fees,
          assessment_schemes: schemes,
          grading_scales: scales,
          report_card_settings: 0,
          teaching_assignments: teaching.assignments,
          form_teachers: teaching.formTeachers,
          enforcement_and_windows: teaching.windowsAndEnforcement,
        };
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'rollover',
          entity: 'academic_session',
          entityId: session.id,
          after: { from_session_id: from.id, name: session.name, make_current: input.make_current, copy: c, copied },
        });
        return { session, copied };
      });
    } catch (err) {
      // A session of the same name saved meanwhile.
      if (isUniqueViolation(err)) throw conflict(ROLLOVER_MESSAGES.nameTaken(input.name));
      throw err;
    }
  }
}
