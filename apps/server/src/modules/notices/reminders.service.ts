import { addDays } from '@portal/domain';
import { recordNoticeEvent } from '../../db/notice-outbox';
import type { FeeReportsService } from '../payments/fee-reports.service';
import type { NoticeRecipientsRepository } from './composer.repository';
import type { NoticeTemplatesService } from './templates.service';

/** The reminder a debtor is due today: the largest of the school's days their debt has reached, or null. */
export function reminderDue(daysOverdue: number, reminderDays: readonly number[]): number | null {
  const reached = reminderDays.filter((d) => d <= daysOverdue);
  return reached.length ? Math.max(...reached) : null;
}

/**
 * Fees-overdue reminders (decision record 037): once a day the notices module reads the debtors
 * through the payments module's list (the current term, only what has fallen due by the school's
 * today: an item not yet due is never owed) and records a `fees_overdue` event for each debtor whose
 * debt has reached one of the school's reminder days (7, 14, 30 after it fell due). The key names the
 * student, the day the debt became overdue and the reminder day, so a tick run twice, on two
 * instances, or after a missed day records each reminder once; a debt that reached 30 days when the
 * school first set reminders gets the 30-day one only.
 */
export class FeeRemindersService {
  private lastDay: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly templates: NoticeTemplatesService,
    private readonly feeReports: FeeReportsService,
    private readonly recipients: NoticeRecipientsRepository,
    /** The school's today (the calendar's). */
    private readonly today: () => Promise<string> = () => Promise.resolve(new Date().toISOString().slice(0, 10)),
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  /**
   * The daily scheduler, where the notices worker runs (app.ts, NOTICES_WORKER on): looks every
   * `everyMs` (an hour) whether the school's day changed, and if so records that day's reminders.
   * Several instances running it record each reminder once (the event keys).
   */
  start(everyMs = 3_600_000): void {
    if (this.timer) return;
    const loop = () => {
      this.running = this.today()
        .then((day) => this.tick(day))
        .catch((err: unknown) => this.log?.warn({ err }, 'fee reminders failed'))
        .finally(() => {
          this.running = null;
          if (this.timer) this.timer = setTimeout(loop, everyMs);
        });
    };
    this.timer = setTimeout(loop, 1_000);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Records today's reminders; the count of events newly recorded. */
  async run(): Promise<number> {
    const days = await this.templates.reminderDaysIn();
    if (!days.length) return 0;
    const report = await this.feeReports.debtorsAll({ sort: 'days_overdue', order: 'desc' });
    const due = report.debtors.flatMap((d) => {
      const r = reminderDue(d.days_overdue, days);
      return r === null ? [] : [{ debtor: d, reminder: r }];
    });
    if (!due.length) return 0;
    const families = await this.recipients.families({ admissionNumbers: due.map((d) => d.debtor.admission_number) });
    const byAdmission = new Map<string, number>();
    for (const f of families) byAdmission.set(f.admission_number, f.student_id);
    let recorded = 0;
    await this.recipients.transaction(async (trx) => {
      for (const { debtor, reminder } of due) {
        const studentId = byAdmission.get(debtor.admission_number);
        if (studentId === undefined) continue;
        const since = addDays(report.asOf, -debtor.days_overdue);
        const id = await recordNoticeEvent(trx, {
          kind: 'fees_overdue',
          key: `fees_overdue:${report.session.id}:${studentId}:${since}:${reminder}`,
          payload: {
            student_id: studentId,
            balance_kobo: Math.round(debtor.balance * 100),
            days: debtor.days_overdue,
            session: report.session.name,
            term: report.term,
            as_of: report.asOf,
          },
        });
        if (id !== null) recorded += 1;
      }
    });
    return recorded;
  }

  /** The scheduler's tick: runs once per school day (`today`), whatever the tick's rate. */
  async tick(today: string): Promise<number> {
    if (this.lastDay === today) return 0;
    const n = await this.run();
    this.lastDay = today;
    return n;
  }
}
