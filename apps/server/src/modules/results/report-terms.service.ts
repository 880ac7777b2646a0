import { TERM_VALUES, type ReportTerm, type ReportTermInput, type Term } from '@portal/domain';
import { writeTermPutAudit } from '../../db/audit';
import type { SessionRows } from '../calendar/sessions.service';
import type { CardEntriesRepository } from './card-entries.repository';
import type { Actor } from './results.service';
import type { ArmSheetAccess } from './sheet-access';

/** The term's dates of the report cards: when the next term begins and how many times school opened. */
export class ReportTermsService {
  constructor(
    private readonly arms: ArmSheetAccess,
    private readonly sessions: SessionRows,
    private readonly entries: CardEntriesRepository,
  ) {}

  /**
   * The term's times school opened as the card counts it (typed, else the calendar's count; null when
   * neither): the bound of every present + absent, typed on the sheet or carried in from paper.
   */
  async timesOpened(sessionId: number, term: Term): Promise<number | null> {
    return (await this.arms.attendanceOf({ session_id: sessionId, term, student_class: '' }, [])).opened;
  }

  /** The three terms of a session, each with its dates (null until set). */
  async terms(sessionId: number): Promise<ReportTerm[]> {
    const [, rows] = await Promise.all([this.arms.session(sessionId), this.sessions.cardTerms(sessionId)]);
    return TERM_VALUES.map((term) => {
      const r = rows.find((x) => x.term === term);
      return {
        session_id: sessionId,
        term,
        next_term_begins: r?.next_term_begins ?? null,
        times_opened: r?.times_opened === null || r?.times_opened === undefined ? null : Number(r.times_opened),
      };
    });
  }

  async putTerm(actor: Actor, input: ReportTermInput): Promise<ReportTerm> {
    await this.arms.session(input.session_id);
    await this.entries.transaction(async (trx) => {
      const before = await this.sessions.cardTerm(input.session_id, input.term, trx);
      await this.sessions.putCardTerm(trx, input, actor.id);
      await writeTermPutAudit(trx, actor.id, 'report_term', ['next_term_begins', 'times_opened'], before, input);
    });
    return { ...input };
  }
}
