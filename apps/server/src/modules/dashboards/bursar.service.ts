import { CLASS_LEVELS, classLevelOf, sumNaira } from '@portal/domain';
import {
  AGEING_BANDS,
  AGEING_BAND_LABELS,
  ageingBandOf,
  type BursarDashboard,
  type DashboardTermQuery,
} from '@portal/domain/dashboard-staff';
import type { CalendarService } from '../calendar/calendar.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { FeeReportsService } from '../payments/fee-reports.service';
import type { TransferReportsService } from '../payments/transfer-reports.service';
import { dashboardTerm } from './staff-term';

/**
 * The bursar's dashboard (issue 36.2). Every figure is the bursar's own report on the same read: the
 * collection summary of the term (its days and methods within the term's dates, expected against
 * collected by class added up by level) and the debtors list of the term (same due rule, brought
 * forward included, days counted from when the oldest unpaid fee fell due), so the dashboard never
 * disagrees with the reports. One read of the school for both (`FeeReportsService.termOverview`):
 * a fixed number of statements whatever the number of students.
 */
type Dated = Awaited<ReturnType<typeof dashboardTerm>>;

export class BursarDashboardService {
  constructor(
    private readonly feeReports: FeeReportsService,
    private readonly transfers: TransferReportsService,
    private readonly calendar: Pick<CalendarService, 'currentTerm' | 'terms'>,
    private readonly sessions: Pick<SessionsService, 'byId' | 'byName'>,
  ) {}

  /**
   * The term's collection summary and debtors from one read (`termOverview`); a term without dates
   * in the calendar (or no term known) gets each report as it answers without a day range.
   */
  private async fees(at: Dated, from: string | null, to: string | null) {
    if (at.session_id !== null && at.term && from && to) {
      const { summary, debtors } = await this.feeReports.termOverview({ session_id: at.session_id, term: at.term, from, to });
      return { collections: summary, debtors };
    }
    const session_id = at.session_id ?? undefined;
    const term = at.term ?? undefined;
    const [collections, debtors] = await Promise.all([
      this.feeReports.collections({ session_id, term }),
      this.feeReports.debtorsAll({ session_id, term, sort: 'balance', order: 'desc' }),
    ]);
    return { collections, debtors };
  }

  async get(q: DashboardTermQuery): Promise<BursarDashboard> {
    const at = await dashboardTerm(this.calendar, this.sessions, q);
    // The term's days so far: its first day to today, or to its last day once it is over.
    const from = at.starts_on;
    const to = at.ends_on && at.ends_on < at.today ? at.ends_on : from && at.today >= from ? at.today : at.ends_on;
    const [{ collections, debtors }, waiting] = await Promise.all([this.fees(at, from, to), this.transfers.waiting()]);
    const byLevel = CLASS_LEVELS.map((level) => {
      const classes = collections.by_class.filter((c) => classLevelOf(c.student_class) === level);
      return {
        level,
        students: classes.reduce((n, c) => n + c.students, 0),
        expected: sumNaira(classes, (c) => c.expected),
        collected: sumNaira(classes, (c) => c.collected),
        outstanding: sumNaira(classes, (c) => c.outstanding),
      };
    }).filter((l) => l.students > 0 || l.expected > 0 || l.collected > 0);
    const ageing = AGEING_BANDS.map((band) => {
      const rows = debtors.debtors.filter((d) => ageingBandOf(d.days_overdue) === band);
      return { band, label: AGEING_BAND_LABELS[band], debtors: rows.length, balance: sumNaira(rows, (d) => d.balance) };
    });
    return {
      session_id: collections.session_id,
      session: collections.session,
      term: debtors.term,
      as_of: collections.as_of,
      from: from ?? null,
      to: to ?? null,
      collections_by_day: collections.by_day,
      collections_by_method: collections.by_method,
      by_level: byLevel,
      totals: {
        expected: collections.totals.expected,
        collected: collections.totals.collected,
        outstanding: collections.totals.outstanding,
        brought_forward: collections.totals.brought_forward,
      },
      debtors: { count: debtors.debtors.length, total_balance: debtors.total_balance },
      debtors_ageing: ageing,
      transfers_waiting: waiting,
    };
  }
}
