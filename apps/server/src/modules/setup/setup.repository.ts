import type { Conn } from '../../db/index';
import type { SetupStepId } from '@portal/domain';
import '../attendance/attendance.tables';
import '../payments/payments.tables';
import '../results/results.tables';
import '../teaching/teaching.tables';

/**
 * The first-run checklist's facts in ONE statement of `exists` probes (docs/decisions/023): each
 * probe stops at its first row, so the cost does not grow with the school. It is the one reader that
 * looks across modules' tables; it reads only whether rows exist, never their contents, and writes
 * nothing (decision record 023 on why this is not nine calls to nine services).
 */
export class SetupRepository {
  constructor(private readonly db: Conn) {}

  async facts(): Promise<Record<SetupStepId, boolean>> {
    const row = await this.db
      .selectNoFrom((eb) => {
        const current = eb.selectFrom('academic_sessions').select('id').where('is_current', '=', 1);
        return [
          eb.exists(eb.selectFrom('settings').select('key').where('key', '=', 'school')).as('school'),
          eb
            .exists(
              // A dated term: a row with only the card's fields (next term begins) is no calendar yet.
              eb
                .selectFrom('school_terms')
                .select('school_terms.session_id')
                .where('school_terms.session_id', 'in', current)
                .where('school_terms.starts_on', 'is not', null),
            )
            .as('calendar'),
          eb
            .and([
              eb.exists(eb.selectFrom('class_arms').select('id').where('retired', '=', 0)),
              eb.exists(eb.selectFrom('subjects').select('id').where('retired', '=', 0)),
            ])
            .as('classes'),
          eb.exists(eb.selectFrom('assessment_schemes').select('session_id').where('session_id', 'in', current)).as('assessment'),
          eb.exists(eb.selectFrom('staff').select('id')).as('staff'),
          eb.exists(eb.selectFrom('students').select('id')).as('students'),
          eb.exists(eb.selectFrom('teaching_assignments').select('id').where('session_id', 'in', current)).as('assignments'),
          eb.exists(eb.selectFrom('fee_items').select('id').where('session_id', 'in', current)).as('fees'),
          eb.exists(eb.selectFrom('settings').select('key').where('key', '=', 'report_cards')).as('report_cards'),
        ];
      })
      .executeTakeFirstOrThrow();
    // SQLite answers 0/1, PostgreSQL true/false.
    const yes = (v: unknown) => v === true || Number(v) === 1;
    return {
      school: yes(row.school),
      calendar: yes(row.calendar),
      classes: yes(row.classes),
      assessment: yes(row.assessment),
      staff: yes(row.staff),
      students: yes(row.students),
      assignments: yes(row.assignments),
      fees: yes(row.fees),
      report_cards: yes(row.report_cards),
    };
  }
}
