import {
  ATTENDANCE_MESSAGES,
  dayInfo,
  movedEvent,
  schoolDaysOfTerm,
  TERM_VALUES,
  termLabel,
  termOfDate,
  type AttendanceSettings,
  type AttendanceSettingsInput,
  type CalendarEvent,
  type CalendarEventInput,
  type SchoolCalendar,
  type SchoolCalendarView,
  type Term,
  type TermDates,
  type TermDatesInput,
} from '@portal/domain';
import type { Conn, Trx } from '../../db/index';
import { writeAudit, writeTermPutAudit } from '../../db/audit';
import { badRequest, notFound } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { CalendarRepository } from './calendar.repository';
import { toEvent, type CalendarService } from './calendar.service';

/**
 * What the calendar asks of the register (attendance's, handed in by the composition root so that
 * the calendar imports nothing of attendance): the days registers were saved on, which a change of
 * the calendar must not strand.
 */
export interface RegisterDays {
  /** Registers saved per term of a session. */
  registerCounts(sessionId: number, conn?: Conn): Promise<Map<string, number>>;
  /** The distinct dates of a term's registers outside [from, to], in order. */
  registerDatesOutside(sessionId: number, term: string, from: string, to: string, conn?: Conn): Promise<string[]>;
  /** The distinct dates in [from, to] with any register, in order. */
  registerDatesBetween(from: string, to: string, conn?: Conn): Promise<string[]>;
}

export interface Actor {
  id: number;
}

type TermLike = { session_id: number; term: string; starts_on: string; ends_on: string };

/** What makes two events one entered twice: the same name, kind and dates. */
const eventKey = (e: { name: string; kind: string; starts_on: string; ends_on: string }) =>
  `${e.kind}|${e.starts_on}|${e.ends_on}|${e.name}`;

/**
 * The dates of saved registers within `range` that no extra school day keeps a school day: what a
 * holiday or break over `range` would strand (their registers no longer counted).
 */
function strandedBy(
  range: { starts_on: string; ends_on: string },
  registerDates: readonly string[],
  events: readonly { kind: string; starts_on: string; ends_on: string }[],
): string[] {
  return registerDates.filter(
    (d) => range.starts_on <= d && d <= range.ends_on && !events.some((e) => e.kind === 'school_day' && e.starts_on <= d && d <= e.ends_on),
  );
}

/** The first start to the last end of dated rows (a session's terms, a list of events); null without any. */
function spanOf(rows: readonly { starts_on: string | null; ends_on: string | null }[]): { from: string; to: string } | null {
  let from: string | null = null;
  let to: string | null = null;
  for (const r of rows) {
    if (!r.starts_on || !r.ends_on) continue;
    if (from === null || r.starts_on < from) from = r.starts_on;
    if (to === null || r.ends_on > to) to = r.ends_on;
  }
  return from && to ? { from, to } : null;
}

/**
 * Another session whose span (its first term's start to its last term's end) the input's session
 * would overlap once the term is saved: terms of different sessions never overlap, so no day of one
 * session (a register, a holiday between two of its terms) falls inside another.
 */
export function sessionSpanClash(terms: readonly TermLike[], input: TermLike): { session_id: number; from: string; to: string } | null {
  const spans = new Map<number, { from: string; to: string }>();
  const widen = (id: number, from: string, to: string) => {
    const s = spans.get(id);
    spans.set(id, s ? { from: from < s.from ? from : s.from, to: to > s.to ? to : s.to } : { from, to });
  };
  for (const t of terms)
    if (!(Number(t.session_id) === input.session_id && t.term === input.term)) widen(Number(t.session_id), t.starts_on, t.ends_on);
  widen(input.session_id, input.starts_on, input.ends_on);
  const own = spans.get(input.session_id)!;
  for (const [id, span] of spans)
    if (id !== input.session_id && span.from <= own.to && own.from <= span.to) return { session_id: id, ...span };
  return null;
}

/**
 * The first rule a term's dates would break among the school's dated terms (`terms`, any session):
 * overlapping another term, out of order within its session, or inside another session's span. The
 * field and the calendar's message, or null.
 */
export function termDatesProblem(
  terms: readonly TermLike[],
  input: TermLike,
  nameOf: ReadonlyMap<number, string>,
): { field: 'starts_on' | 'ends_on'; message: string } | null {
  const label = (t: { session_id: number; term: string }) => `${termLabel(t.term)} of ${nameOf.get(Number(t.session_id)) ?? ''}`;
  const others = terms.filter((t) => !(Number(t.session_id) === input.session_id && t.term === input.term));
  const overlap = others.find((t) => t.starts_on <= input.ends_on && input.starts_on <= t.ends_on);
  if (overlap) return { field: 'starts_on', message: ATTENDANCE_MESSAGES.termOverlaps(label(overlap)) };
  const idx = TERM_VALUES.indexOf(input.term as Term);
  for (const t of others.filter((x) => Number(x.session_id) === input.session_id)) {
    const j = TERM_VALUES.indexOf(t.term as Term);
    if (j < idx && t.starts_on >= input.starts_on) return { field: 'starts_on', message: ATTENDANCE_MESSAGES.termOrder(label(t)) };
    // A later term set before this one: this one must end before it.
    if (j > idx && t.starts_on <= input.starts_on) return { field: 'ends_on', message: ATTENDANCE_MESSAGES.termOrderBefore(label(t)) };
  }
  const clash = sessionSpanClash(terms, input);
  if (clash)
    return {
      field: 'starts_on',
      message: ATTENDANCE_MESSAGES.termInOtherSession(nameOf.get(clash.session_id) ?? '', clash.from, clash.to),
    };
  return null;
}

/** A new session's term as the next-session step sends it (docs/decisions/040). */
export interface NewSessionTerm {
  term: Term;
  starts_on: string;
  ends_on: string;
  next_term_begins: string | null;
}

/**
 * The admin's edits of the school calendar and the calendar page: term dates, events, the
 * attendance settings. Each write is one transaction with its audit row, refused when it would
 * strand a saved register (`RegisterDays`).
 */
export class CalendarEditService {
  constructor(
    private readonly repo: CalendarRepository,
    private readonly calendar: CalendarService,
    private readonly settings: SettingsService,
    private readonly registers: RegisterDays,
  ) {}

  /** A session's calendar page: its three terms with their school days and registers, the events, today. */
  async view(sessionId: number): Promise<SchoolCalendarView> {
    const [session, settings, allTerms, counts, tz] = await Promise.all([
      this.calendar.session(sessionId),
      this.settings.attendanceSettings(),
      this.repo.terms(),
      this.registers.registerCounts(sessionId),
      this.calendar.schoolToday(),
    ]);
    const own = allTerms.filter((t) => Number(t.session_id) === sessionId);
    const events = (await this.repo.events(spanOf(own))).map(toEvent);
    const cal: SchoolCalendar = { settings, terms: allTerms.map((t) => ({ ...t, term: t.term as Term })), events };
    return {
      session_id: session.id,
      session_name: session.name,
      settings,
      terms: TERM_VALUES.map((term) => {
        const t = own.find((x) => x.term === term);
        const dates: TermDates | null = t ? { session_id: sessionId, term, starts_on: t.starts_on, ends_on: t.ends_on } : null;
        return {
          session_id: sessionId,
          term,
          starts_on: t?.starts_on ?? null,
          ends_on: t?.ends_on ?? null,
          school_days: dates ? schoolDaysOfTerm(cal, dates).length : null,
          registers: counts.get(term) ?? 0,
        };
      }),
      events,
      today: tz.today,
    };
  }

  async putSettings(actor: Actor, input: AttendanceSettingsInput): Promise<AttendanceSettings> {
    const { cal, today } = await this.calendar.around(null, null);
    const term = termOfDate(cal, today);
    // Read before the transaction: SQLite has one connection, held by the transaction.
    const stored = await this.settings.attendanceSettings();
    return this.repo.transaction(async (trx) => {
      if (input.periods_per_day !== stored.periods_per_day && term) {
        const used = await this.registers.registerCounts(term.session_id, trx);
        if (used.get(term.term)) throw badRequest({ periods_per_day: [ATTENDANCE_MESSAGES.periodsLocked] });
      }
      return this.settings.putAttendance(trx, actor.id, {
        periods_per_day: input.periods_per_day,
        saturday_classes: input.saturday_classes,
      });
    });
  }

  async putTerm(actor: Actor, input: TermDatesInput): Promise<TermDates> {
    const [, sessions] = await Promise.all([this.calendar.session(input.session_id), this.calendar.sessions.list()]);
    const nameOf = new Map(sessions.map((s) => [s.id, s.name]));
    return this.repo.transaction(async (trx) => {
      const terms = await this.repo.terms(trx);
      const problem = termDatesProblem(terms, input, nameOf);
      if (problem) throw badRequest({ [problem.field]: [problem.message] });
      const outside = await this.registers.registerDatesOutside(input.session_id, input.term, input.starts_on, input.ends_on, trx);
      if (outside.length) {
        const field = outside[0]! < input.starts_on ? 'starts_on' : 'ends_on';
        throw badRequest({ [field]: [ATTENDANCE_MESSAGES.termMarksOutside(outside[0]!, outside.length)] });
      }
      const before = terms.find((t) => Number(t.session_id) === input.session_id && t.term === input.term);
      await this.repo.putTerm(trx, input, actor.id);
      await writeTermPutAudit(trx, actor.id, 'school_term', ['starts_on', 'ends_on'], before, input);
      return { session_id: input.session_id, term: input.term, starts_on: input.starts_on, ends_on: input.ends_on };
    });
  }

  /**
   * A session's three terms as the pattern of the next one: each term's dates and the card's "next
   * term begins" (null where the session has none).
   */
  async sessionPattern(
    sessionId: number,
    conn?: Conn,
  ): Promise<{ term: Term; starts_on: string | null; ends_on: string | null; next_term_begins: string | null }[]> {
    const rows = await this.repo.sessionTermRows(sessionId, conn);
    return TERM_VALUES.map((term) => {
      const r = rows.find((x) => x.term === term);
      return { term, starts_on: r?.starts_on ?? null, ends_on: r?.ends_on ?? null, next_term_begins: r?.next_term_begins ?? null };
    });
  }

  /**
   * Writes a new session's three terms (dates and "next term begins") in the caller's transaction,
   * each checked by the calendar's rules against every dated term (`termDatesProblem`), the ones
   * before it in the list included. A broken rule: 400 on `terms.<i>.<field>`. `nameOf` names the
   * school's sessions (the new one included) for the messages. Audited per term.
   */
  async putSessionTermsIn(
    trx: Trx,
    actor: Actor,
    sessionId: number,
    terms: readonly NewSessionTerm[],
    nameOf: ReadonlyMap<number, string>,
  ): Promise<void> {
    const dated: TermLike[] = [...(await this.repo.terms(trx))];
    for (const [i, t] of terms.entries()) {
      const input = { session_id: sessionId, term: t.term, starts_on: t.starts_on, ends_on: t.ends_on };
      const problem = termDatesProblem(dated, input, nameOf);
      if (problem) throw badRequest({ [`terms.${i}.${problem.field}`]: [problem.message] });
      dated.push(input);
    }
    await this.repo.putSessionTerms(
      trx,
      terms.map((t) => ({ session_id: sessionId, ...t })),
      actor.id,
    );
    for (const t of terms)
      await writeTermPutAudit(trx, actor.id, 'school_term', ['starts_on', 'ends_on', 'next_term_begins'], null, {
        session_id: sessionId,
        ...t,
      });
  }

  /**
   * The events (holidays, breaks, extra school days) within a session's span, given its terms
   * (`sessionPattern`): what a rollover would move.
   */
  async eventCountWithin(terms: readonly { starts_on: string | null; ends_on: string | null }[]): Promise<number> {
    const span = spanOf(terms);
    // Counted as the copy writes them: an event entered twice moves once.
    return span ? new Set((await this.repo.events(span)).map(eventKey)).size : 0;
  }

  /**
   * Moves the events within one session's span into a new session whose terms are `toTerms`
   * (`movedEvent`), in the caller's transaction: the number written. An event the new calendar
   * already has (same name, kind and dates) is not written twice; a holiday or break that would land
   * on a day with a saved register is left out, as adding it by hand is refused. One audit row.
   */
  async copySessionEventsIn(
    trx: Trx,
    actor: Actor,
    fromSessionId: number,
    toSessionId: number,
    toTerms: readonly { term: Term; starts_on: string }[],
  ): Promise<number> {
    const fromTerms = (await this.repo.sessionTermRows(fromSessionId, trx)).map((t) => ({ ...t, term: t.term as Term }));
    const span = spanOf(fromTerms);
    if (!span) return 0;
    const moved = (await this.repo.events(span, trx)).map(toEvent).map((e) => ({
      name: e.name,
      kind: e.kind,
      ...movedEvent(e, fromTerms, toTerms),
    }));
    if (!moved.length) return 0;
    const reach = spanOf(moved)!;
    // One after the other: a transaction is one connection.
    const existing = await this.repo.events(reach, trx);
    const registerDates = await this.registers.registerDatesBetween(reach.from, reach.to, trx);
    const stranding = (e: (typeof moved)[number]) => e.kind !== 'school_day' && strandedBy(e, registerDates, existing).length > 0;
    const seen = new Set(existing.map(eventKey));
    const fresh: typeof moved = [];
    for (const e of moved) {
      const key = eventKey(e);
      if (stranding(e) || seen.has(key)) continue;
      seen.add(key);
      fresh.push(e);
    }
    if (!fresh.length) return 0;
    await this.repo.insertEvents(trx, fresh, actor.id);
    await writeAudit(trx, {
      actorUserId: actor.id,
      action: 'copy',
      entity: 'calendar_event',
      entityId: toSessionId,
      // The count, as the other copies record: each event carries its creator and time.
      after: { from_session_id: fromSessionId, events: fresh.length },
    });
    return fresh.length;
  }

  async addEvent(actor: Actor, input: CalendarEventInput): Promise<CalendarEvent> {
    const { cal } = await this.calendar.around(input.starts_on, input.ends_on);
    return this.repo.transaction(async (trx) => {
      if (input.kind !== 'school_day') {
        // A day kept a school day by an extra school day event keeps its registers counted.
        const dates = await this.registers.registerDatesBetween(input.starts_on, input.ends_on, trx);
        const dropped = strandedBy(input, dates, cal.events);
        if (dropped.length) throw badRequest({ starts_on: [ATTENDANCE_MESSAGES.eventMarksInside(dropped[0]!, input.name)] });
      }
      const id = await this.repo.insertEvent(trx, input, actor.id);
      const event: CalendarEvent = { id, ...input };
      await writeAudit(trx, { actorUserId: actor.id, action: 'create', entity: 'calendar_event', entityId: id, after: event });
      return event;
    });
  }

  async deleteEvent(actor: Actor, id: number): Promise<void> {
    const stored = await this.repo.event(id);
    if (!stored) throw notFound(ATTENDANCE_MESSAGES.eventNotFound);
    const event = toEvent(stored);
    const around = await this.calendar.around(event.starts_on, event.ends_on);
    await this.repo.transaction(async (trx) => {
      if (event.kind === 'school_day') {
        const dates = await this.registers.registerDatesBetween(event.starts_on, event.ends_on, trx);
        const without: SchoolCalendar = { ...around.cal, events: around.cal.events.filter((e) => e.id !== id) };
        const lost = dates.find((d) => !dayInfo(without, d).school_day);
        if (lost) throw badRequest({ non_field_errors: [ATTENDANCE_MESSAGES.eventMarksOnRemove(lost)] });
      }
      await this.repo.deleteEvent(trx, id);
      await writeAudit(trx, { actorUserId: actor.id, action: 'delete', entity: 'calendar_event', entityId: id, before: event });
    });
  }
}
