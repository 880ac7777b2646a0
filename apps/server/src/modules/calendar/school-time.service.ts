import { DEFAULT_SCHOOL_SETTINGS, dayBoundsIn, todayIn, yearIn } from '@portal/domain';
import type { Conn } from '../../db/index';

/** The clock (ms since the epoch): the app's `deps.now`, which tests fix. */
export type Clock = () => number;

/** What the school's time reads of the settings: the time zone, now or in the caller's transaction. */
export interface SchoolZone {
  get(): Promise<{ time_zone: string }>;
  timeZoneIn(conn: Conn): Promise<string>;
}

/**
 * "Today" in the school's time zone: the one place the server reads it (the zone is a school
 * setting, the instant the injected clock). The maths is the domain's (`calendar.ts`); nothing
 * here reads the host's `TZ`.
 */
export class SchoolTime {
  constructor(
    private readonly zone: SchoolZone,
    private readonly now: Clock = Date.now,
  ) {}

  /** The instant now, by the injected clock. */
  instant(): Date {
    return new Date(this.now());
  }

  /** The school's time zone (the setting, Africa/Lagos until one is saved); `conn` reads it in a transaction. */
  async timeZone(conn?: Conn): Promise<string> {
    if (conn) return this.zone.timeZoneIn(conn);
    return (await this.zone.get()).time_zone || DEFAULT_SCHOOL_SETTINGS.time_zone;
  }

  /** The school's today (YYYY-MM-DD) and its time zone. */
  async today(conn?: Conn): Promise<{ today: string; timeZone: string }> {
    const timeZone = await this.timeZone(conn);
    return { today: todayIn(timeZone, this.instant()), timeZone };
  }

  /** The school's calendar year now (admission numbers' {YYYY}); `conn` reads the zone in a transaction. */
  async year(conn?: Conn): Promise<number> {
    return yearIn(await this.timeZone(conn), this.instant());
  }

  /** The school's day of a stored instant (a timestamp written by the server). */
  dayOf(timeZone: string, instant: string): string {
    return todayIn(timeZone, new Date(instant));
  }

  /** [from, to) of a school day (today when none is named), as UTC instants. */
  async dayBounds(day?: string): Promise<{ day: string; from: string; to: string }> {
    const { today, timeZone } = await this.today();
    const d = day ?? today;
    return { day: d, ...dayBoundsIn(d, timeZone) };
  }
}
