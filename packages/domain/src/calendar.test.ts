import { afterEach, describe, expect, it } from 'vitest';
import { dayBoundsIn, dayStartIn, isCalendarDay, noonIn, schoolDayOf, todayIn, yearIn } from './calendar';
import { formatDate, formatDay, formatPaidWhen } from './datetime';

/** The host's environment (the domain has no Node types): its `TZ` is what these tests change. */
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const hostTz = env.TZ;
afterEach(() => {
  if (hostTz === undefined) delete env.TZ;
  else env.TZ = hostTz;
});

/** Each school zone on hosts set to other zones: the answers never depend on the host's `TZ`. */
const CASES = [
  { zone: 'Africa/Lagos', hosts: ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati'] },
  { zone: 'America/New_York', hosts: ['UTC', 'Asia/Tokyo', 'Pacific/Kiritimati'] },
  { zone: 'Pacific/Kiritimati', hosts: ['UTC', 'America/New_York', 'Africa/Lagos'] },
] as const;

describe("the school's time", () => {
  for (const { zone, hosts } of CASES) {
    for (const host of hosts) {
      it(`${zone} on a host in ${host}: today, the year, a day's bounds`, () => {
        env.TZ = host;
        // 21:00 on 31 December 2025 in the school's zone.
        const eve = {
          'Africa/Lagos': '2025-12-31T20:00:00Z',
          'America/New_York': '2026-01-01T02:00:00Z',
          'Pacific/Kiritimati': '2025-12-31T07:00:00Z',
        }[zone];
        expect(todayIn(zone, new Date(eve))).toBe('2025-12-31');
        expect(yearIn(zone, new Date(eve))).toBe(2025);
        expect(schoolDayOf(eve, zone)).toBe('2025-12-31');
        const start = {
          'Africa/Lagos': '2025-12-30T23:00:00.000Z',
          'America/New_York': '2025-12-31T05:00:00.000Z',
          'Pacific/Kiritimati': '2025-12-30T10:00:00.000Z',
        }[zone];
        expect(dayStartIn('2025-12-31', zone)).toBe(start);
        const { from, to } = dayBoundsIn('2025-12-31', zone);
        expect(from).toBe(start);
        expect(Date.parse(to) - Date.parse(from)).toBe(24 * 3600_000);
        expect(from <= new Date(eve).toISOString() && new Date(eve).toISOString() < to).toBe(true);
      });

      it(`${zone} on a host in ${host}: a stored day is written as that day, never a day early or late`, () => {
        env.TZ = host;
        expect(formatDate('2026-11-20', zone)).toBe('20 Nov 2026');
        expect(formatDate('2026-01-01', zone)).toBe('1 Jan 2026');
        expect(formatDay('2026-01-12')).toBe('12 Jan 2026');
        // An offline payment: the day the bursar recorded, whatever the made-up noon says in this zone.
        expect(formatPaidWhen({ paid_on: '2026-03-02', paid_at: '2026-03-02T11:00:00.000Z' }, zone)).toBe('2 Mar 2026');
      });
    }
  }

  it('keeps a day 23 or 25 hours long across a clock change (New York)', () => {
    expect(dayStartIn('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(dayStartIn('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
    expect(dayStartIn('2026-11-01', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
    expect(dayStartIn('2026-11-02', 'America/New_York')).toBe('2026-11-02T05:00:00.000Z');
  });

  it("puts an offline payment's day at the school's noon, whatever the host's zone", () => {
    for (const host of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati']) {
      env.TZ = host;
      expect(noonIn('2026-03-02', 'Africa/Lagos')).toBe('2026-03-02T11:00:00.000Z');
      expect(noonIn('2026-03-02', 'America/New_York')).toBe('2026-03-02T17:00:00.000Z');
      // The day the clocks go forward: noon is already summer time.
      expect(noonIn('2026-03-08', 'America/New_York')).toBe('2026-03-08T16:00:00.000Z');
      // Fourteen hours ahead of UTC: the school's noon is the evening before in UTC.
      expect(noonIn('2026-03-02', 'Pacific/Kiritimati')).toBe('2026-03-01T22:00:00.000Z');
      expect(noonIn('2026-01-01', 'Pacific/Kiritimati')).toBe('2025-12-31T22:00:00.000Z');
    }
  });

  it('tells a stored day from a timestamp', () => {
    expect(isCalendarDay('2026-11-20')).toBe(true);
    expect(isCalendarDay('2026-11-20T00:00:00Z')).toBe(false);
    expect(isCalendarDay(null)).toBe(false);
  });
});
