import { personDatesAfter } from '@portal/domain';
import { badRequest } from '../../http/errors';
import type { SchoolTime } from '../calendar/school-time.service';

/**
 * 400 when a date of birth or an employment date is after the school's today (its time zone, a
 * setting): the schema knows no zone and refuses only days after today everywhere.
 */
export async function refusePersonDatesAfterToday(
  time: Pick<SchoolTime, 'today'>,
  v: Parameters<typeof personDatesAfter>[1],
): Promise<void> {
  if (!v.date_of_birth && !v.profile_data?.employment_date) return;
  const late = personDatesAfter((await time.today()).today, v);
  if (late.length) throw badRequest(Object.fromEntries(late.map((i) => [i.path.join('.'), [i.message]])));
}
