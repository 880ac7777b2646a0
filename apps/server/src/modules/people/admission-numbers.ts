import type { Trx } from '../../db/index';
import { formatAdmissionNumberAs } from '@portal/domain';
import type { SchoolTime } from '../calendar/school-time.service';
import { allocate } from '../../db/counters';
import { schoolSettingsIn } from '../settings/settings.service';
import { takenAdmissionNumbers } from './accounts.queries';

/** The counter the factories and the services share for admission numbers. */
export const STUDENT_COUNTER = 'student';

/**
 * `count` new admission numbers in the school's format, allocated inside the
 * caller's transaction from the one student counter, so numbers never repeat. Existing numbers
 * never change. A number some earlier format already produced (e.g. after switching formats) is
 * skipped, never issued twice.
 */
export async function nextAdmissionNumbers(trx: Trx, count: number, time: Pick<SchoolTime, 'year'>): Promise<string[]> {
  const { admission_number_format: format } = await schoolSettingsIn(trx);
  // {YYYY}: the year in the school's time zone by the app's clock (21:00 on 31 December in New York is that year).
  const year = await time.year(trx);
  const out: string[] = [];
  for (let attempts = 0; out.length < count; attempts++) {
    if (attempts > 20) throw new Error('Could not allocate free admission numbers');
    const need = count - out.length;
    const first = await allocate(trx, STUDENT_COUNTER, need);
    const candidates = Array.from({ length: need }, (_, i) => formatAdmissionNumberAs(format, first + i, year));
    const taken = await takenAdmissionNumbers(trx, candidates);
    out.push(...candidates.filter((c) => !taken.has(c)));
  }
  return out;
}
