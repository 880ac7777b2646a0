import {
  competitionRanks,
  dayInfo,
  PARENT_MESSAGES,
  round2,
  averageOver,
  TERM_VALUES,
  type ParentHomeChild,
  type Term,
} from '@portal/domain';
import type { DB } from '../../db/index';
import { forbidden } from '../../http/errors';
import type { CalendarService } from '../calendar/calendar.service';
import { childrenOfUser, latestCardTotals, marksOf, registerDaysOf } from './family.queries';

/**
 * What the parent home asks of payments (a layer above parents), declared here and answered by the
 * composition root with payments' own fee rules (the same figures the child's payment screen shows):
 * each student's fees fallen due in the session up to `term` by `today` (the school's today, read once
 * by the caller), and what was paid, in kobo. One call for all the children (a fixed number of
 * statements); payments' `feesForFamily` answers it.
 */
export type FamilyFees = (q: {
  session: { id: number; name: string };
  term: Term;
  today: string;
  students: readonly { id: number; student_class: string }[];
}) => Promise<Map<number, { due_kobo: number; paid_kobo: number; outstanding_kobo: number }>>;

/**
 * Which of the children's latest cards the fee gate withholds from their parent (results' `CardGate`,
 * decision 042, a layer above parents; answered by the composition root): the ids of the students whose
 * card may not be seen. A withheld card is named on the home, its average and position never sent.
 */
export type FamilyCardGate = (
  cards: readonly { student: { id: number; student_class: string }; session: { id: number; name: string }; term: Term }[],
) => Promise<ReadonlySet<number>>;

type Marked = NonNullable<ParentHomeChild['attendance']>['today'];

/** A parent's home: each child with the current term at a glance (GET /api/parent/children/). */
export class FamilyService {
  constructor(
    private readonly db: DB,
    private readonly calendar: Pick<CalendarService, 'currentTerm' | 'around'>,
    private readonly fees: FamilyFees,
    private readonly withheld: FamilyCardGate,
  ) {}

  async children(actor: { id: number; role: string }): Promise<{ children: ParentHomeChild[] }> {
    if (actor.role !== 'parent') throw forbidden(PARENT_MESSAGES.notYourChild);
    const kids = await childrenOfUser(this.db, actor.id);
    if (!kids.length) return { children: [] };
    const ids = kids.map((k) => k.id);
    // The current term, and each child's latest released card with its class's totals (one statement).
    const [current, totals] = await Promise.all([this.calendar.currentTerm(), latestCardTotals(this.db, ids)]);
    const termOrder = (t: string) => TERM_VALUES.indexOf(t as Term);
    const cardKey = (c: { session_id: number; term: string; student_class: string }) => `${c.session_id}/${c.term}/${c.student_class}`;
    const latest = new Map<number, (typeof totals)[number]>();
    const byCard = new Map<string, { student_id: number; raw: number }[]>();
    const children = new Set(ids);
    for (const t of totals) {
      if (children.has(t.student_id)) {
        const have = latest.get(t.student_id);
        if (!have || t.session > have.session || (t.session === have.session && termOrder(t.term) > termOrder(have.term)))
          latest.set(t.student_id, t);
      }
      const k = cardKey(t);
      let list = byCard.get(k);
      if (!list) byCard.set(k, (list = []));
      list.push({ student_id: t.student_id, raw: averageOver(Number(t.total), Number(t.n)) });
    }
    // The class ranking of each card (the domain's rule, as `rankClass`: the average over the
    // subjects taken, competition ranks), from each student's total and count.
    const rankings = new Map(
      [...byCard].map(([k, rows]) => {
        const ranks = competitionRanks(rows.map((r) => r.raw));
        const byStudent = new Map(rows.map((r, i) => [r.student_id, { average: round2(r.raw), position: ranks[i]! }]));
        return [k, { byStudent, size: rows.length }];
      }),
    );

    // This term's attendance and fees.
    const sessionId = current.session_id;
    const term = current.term;
    const [marks, days, around, fees] =
      sessionId !== null && term !== null
        ? await Promise.all([
            marksOf(this.db, ids, sessionId, term, current.today),
            registerDaysOf(this.db, [...new Set(kids.map((k) => k.arm))], sessionId, term),
            this.calendar.around(current.today, current.today),
            this.fees({
              session: { id: sessionId, name: current.session_name ?? '' },
              term,
              today: current.today,
              students: kids.map((k) => ({ id: k.id, student_class: k.arm })),
            }),
          ])
        : [[], [], null, new Map<number, { due_kobo: number; paid_kobo: number; outstanding_kobo: number }>()];
    const gated = await this.withheld(
      kids.flatMap((k) => {
        const card = latest.get(k.id);
        return card
          ? [
              {
                student: { id: k.id, student_class: card.student_class },
                session: { id: card.session_id, name: card.session },
                term: card.term as Term,
              },
            ]
          : [];
      }),
    );
    const schoolDay = around ? dayInfo(around.cal, current.today).school_day : false;
    const daysOf = new Map(days.map((d) => [d.student_class, Number(d.days)]));

    return {
      children: kids.map((k): ParentHomeChild => {
        const card = latest.get(k.id);
        const standing = card ? rankings.get(cardKey(card)) : undefined;
        const own = gated.has(k.id) ? undefined : standing?.byStudent.get(k.id);
        const mine = marks.filter((m) => m.student_id === k.id);
        const count = (...st: string[]) => mine.filter((m) => st.includes(m.status)).reduce((n, m) => n + Number(m.n), 0);
        const todayHas = (...st: string[]) => mine.some((m) => st.includes(m.status) && Number(m.today) > 0);
        const today: Marked = todayHas('absent', 'excused')
          ? 'absent'
          : todayHas('late')
            ? 'late'
            : todayHas('present')
              ? 'present'
              : schoolDay
                ? 'unmarked'
                : 'no_school';
        const fee = fees.get(k.id);
        return {
          admission_number: k.admission_number,
          first_name: k.first_name,
          last_name: k.last_name,
          arm: k.arm,
          relationship: k.relationship,
          photo_url: k.photo ?? null,
          latest_card: card
            ? {
                session_id: card.session_id,
                session: card.session,
                term: card.term,
                average: own?.average ?? null,
                position: own?.position ?? null,
                out_of: standing && own ? standing.size : null,
              }
            : null,
          attendance:
            sessionId !== null && term !== null
              ? {
                  session_id: sessionId,
                  term,
                  present: count('present'),
                  absent: count('absent', 'excused'),
                  late: count('late'),
                  school_days: daysOf.get(k.arm) ?? 0,
                  today,
                }
              : null,
          fees: sessionId !== null && term !== null && fee ? { session_id: sessionId, term, ...fee } : null,
        };
      }),
    };
  }
}
