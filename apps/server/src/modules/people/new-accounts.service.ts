import type { NewAccountsDay } from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import type { SchoolTime } from '../calendar/school-time.service';
import type { PeopleRepository } from './people.repository';

/**
 * The day's new sign-ins: every account registered on one school day, by form,
 * import or API, so the slips can be printed together. Never a password: one-time passwords are
 * shown once to whoever registered the account and kept only in that browser tab's session.
 * Staff see the students (they may register students only); an admin sees staff too.
 * The day is the school's, in its time zone (a setting), from midnight to midnight there.
 */
export class NewAccountsService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly time: Pick<SchoolTime, 'dayBounds'>,
  ) {}

  async day(actor: AuthUser, date?: string): Promise<NewAccountsDay> {
    const { day, from, to } = await this.time.dayBounds(date);
    const accounts = await this.repo.accountsCreatedBetween(from, to, actor.role === 'admin');
    return { date: day, accounts };
  }
}
