import type { NewAccountsDay } from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import type { PeopleRepository } from './people.repository';

/** The school's time zone: Lagos keeps UTC+1 all year (no daylight saving). */
const LAGOS_OFFSET = '+01:00';

/** Today's date in Lagos, YYYY-MM-DD. */
export function schoolToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The day's new sign-ins: every account registered on one school day, by form,
 * import or API, so the slips can be printed together. Never a password: one-time passwords are
 * shown once to whoever registered the account and kept only in that browser tab's session.
 * Staff see the students (they may register students only); an admin sees staff too.
 */
export class NewAccountsService {
  constructor(private readonly repo: PeopleRepository) {}

  async day(actor: AuthUser, date?: string): Promise<NewAccountsDay> {
    const day = date ?? schoolToday();
    const from = new Date(`${day}T00:00:00${LAGOS_OFFSET}`);
    const to = new Date(from.getTime() + 24 * 60 * 60 * 1000);
    const accounts = await this.repo.accountsCreatedBetween(from.toISOString(), to.toISOString(), actor.role === 'admin');
    return { date: day, accounts };
  }
}
