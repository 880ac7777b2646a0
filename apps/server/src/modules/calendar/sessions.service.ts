import { RESULT_MESSAGES, nextTermOf, type AcademicSession, type Term } from '@portal/domain';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { Trx } from '../../db/index';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import type { SessionsRepository } from './sessions.repository';
import type { SettingsService } from '../settings/settings.service';

/** The settings module's step when the current session changes (decision 058). */
type ReportSettingsHandOver = Pick<SettingsService, 'handOverReportSettingsIn'>;

/** "2025/2026" → "2024/2025"; null for a name of another form. */
function previousSessionName(name: string): string | null {
  const m = /^(\d{4})\/(\d{4})$/.exec(name);
  return m ? `${Number(m[1]) - 1}/${Number(m[2]) - 1}` : null;
}

const present = (r: { id: number; name: string; is_current: number }): AcademicSession => ({
  id: r.id,
  name: r.name,
  is_current: r.is_current === 1,
});

/** Rules of academic sessions: names like 2025/2026, unique; exactly one current once any exists. */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly reportSettings: ReportSettingsHandOver,
  ) {}

  /**
   * Makes `id` the current session in `trx`; the session it replaces keeps the report card settings
   * its cards show, and `id` gets back any it had (decision 058).
   */
  private async makeCurrentIn(trx: Trx, id: number, actor: number): Promise<void> {
    // Two admins switching at once: the second waits, then reads the session the first made current.
    await this.repo.lockSessions(trx);
    const leaving = await this.repo.current(trx);
    await this.repo.makeCurrent(trx, id);
    await this.reportSettings.handOverReportSettingsIn(trx, actor, leaving?.id, id);
  }

  /**
   * `currentOrLatest`'s id in `trx`, every session row held until it ends: a save of today's report
   * card settings runs before or after a switch of the current session, never across it (decision 059).
   */
  async currentIdLockedIn(trx: Trx): Promise<number | undefined> {
    await this.repo.lockSessions(trx);
    return (await this.repo.currentOrLatestRow(trx))?.id;
  }

  async list(): Promise<AcademicSession[]> {
    return (await this.repo.list()).map(present);
  }

  // Reads other modules need (payments): sessions are read only through their own repository.

  async byId(id: number): Promise<AcademicSession | undefined> {
    const row = await this.repo.get(id);
    return row && present(row);
  }

  async byName(name: string): Promise<AcademicSession | undefined> {
    const row = await this.repo.byName(name);
    return row && present(row);
  }

  /** The current session, or the newest when none is marked current; undefined when there is none. */
  async currentOrLatest(): Promise<AcademicSession | undefined> {
    const row = await this.repo.currentOrLatest();
    return row && present(row);
  }

  /**
   * Each term's start as the cards announced it ("next term begins" of the term before; the 1st
   * term's on the 3rd-term cards of the session before). The fee rule's second source after the
   * school calendar.
   */
  async announcedTermStarts(session: { id: number; name: string }): Promise<Partial<Record<Term, string | null>>> {
    const out: Partial<Record<Term, string | null>> = {};
    for (const r of await this.repo.announcedStarts(session.id, previousSessionName(session.name))) {
      const next = nextTermOf(r.term as Term);
      // The session's own 3rd term announces the next session: not this one's.
      if (next.nextSession === (r.session_id === session.id)) continue;
      out[next.term] = r.next_term_begins;
    }
    return out;
  }

  async create(input: { name: string; is_current?: boolean }, actor: number): Promise<AcademicSession> {
    try {
      return await this.repo.transaction(async (trx) => {
        if (await this.repo.byName(input.name, trx)) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
        const id = await this.repo.insert(trx, input.name);
        // The first session is current by itself: the current session is the default everywhere.
        if (input.is_current || !(await this.repo.hasCurrent(trx))) await this.makeCurrentIn(trx, id, actor);
        const row = (await this.repo.get(id, trx))!;
        await writeAudit(trx, { actorUserId: actor, action: 'create', entity: 'academic_session', entityId: id, after: present(row) });
        return present(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
      throw err;
    }
  }

  /**
   * Creates a session in the caller's transaction (starting the next session, docs/decisions/040):
   * 409 with `nameTaken` when the name exists; current only when `makeCurrent` says so. Audited.
   */
  async createIn(trx: Trx, name: string, makeCurrent: boolean, actor: number, nameTaken: string): Promise<AcademicSession> {
    if (await this.repo.byName(name, trx)) throw conflict(nameTaken);
    const id = await this.repo.insert(trx, name);
    if (makeCurrent) await this.makeCurrentIn(trx, id, actor);
    const row = (await this.repo.get(id, trx))!;
    await writeAudit(trx, { actorUserId: actor, action: 'create', entity: 'academic_session', entityId: id, after: present(row) });
    return present(row);
  }

  async update(id: number, input: { name?: string; is_current?: boolean }, actor: number): Promise<AcademicSession> {
    try {
      return await this.repo.transaction(async (trx) => {
        // Locked before the row is read or renamed, so a switch waits here and never deadlocks later.
        if (input.is_current === true) await this.repo.lockSessions(trx);
        const before = await this.repo.get(id, trx);
        if (!before) throw notFound(RESULT_MESSAGES.sessionNotFound);
        if (input.is_current === false && before.is_current === 1) throw badRequest({ is_current: [RESULT_MESSAGES.keepOneCurrent] });
        if (input.name !== undefined && input.name !== before.name) {
          const other = await this.repo.byName(input.name, trx);
          if (other && other.id !== id) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
          await this.repo.rename(trx, id, input.name);
        }
        if (input.is_current === true) await this.makeCurrentIn(trx, id, actor);
        const after = (await this.repo.get(id, trx))!;
        await writeAudit(trx, {
          actorUserId: actor,
          action: 'update',
          entity: 'academic_session',
          entityId: id,
          before: present(before),
          after: present(after),
        });
        return present(after);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
      throw err;
    }
  }
}

/**
 * The session rows other modules' services read, inside their own transactions (`conn`): the
 * calendar's read port, so that no other module imports its repository.
 */
export type SessionRows = Pick<SessionsRepository, 'get' | 'current' | 'byName' | 'getWithOpen' | 'cardTerms' | 'cardTerm' | 'putCardTerm'>;
