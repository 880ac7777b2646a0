import { RESULT_MESSAGES, type AcademicSession } from '@portal/domain';
import { badRequest, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import type { DB } from '../../db/index';
import { SessionsRepository } from './sessions.repository';

const present = (r: { id: number; name: string; is_current: number }): AcademicSession => ({
  id: r.id,
  name: r.name,
  is_current: r.is_current === 1,
});

/** Rules of academic sessions: names like 2025/2026, unique; exactly one current once any exists. */
export class SessionsService {
  constructor(private readonly repo: SessionsRepository) {}

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

  async create(input: { name: string; is_current?: boolean }, actor: number): Promise<AcademicSession> {
    try {
      return await this.repo.transaction(async (trx) => {
        if (await this.repo.byName(input.name, trx)) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
        const id = await this.repo.insert(trx, input.name);
        // The first session is current by itself: the current session is the default everywhere.
        if (input.is_current || !(await this.repo.hasCurrent(trx))) await this.repo.makeCurrent(trx, id);
        const row = (await this.repo.get(id, trx))!;
        await writeAudit(trx, { actorUserId: actor, action: 'create', entity: 'academic_session', entityId: id, after: present(row) });
        return present(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
      throw err;
    }
  }

  async update(id: number, input: { name?: string; is_current?: boolean }, actor: number): Promise<AcademicSession> {
    try {
      return await this.repo.transaction(async (trx) => {
        const before = await this.repo.get(id, trx);
        if (!before) throw notFound(RESULT_MESSAGES.sessionNotFound);
        if (input.is_current === false && before.is_current === 1) throw badRequest({ is_current: [RESULT_MESSAGES.keepOneCurrent] });
        if (input.name !== undefined && input.name !== before.name) {
          const other = await this.repo.byName(input.name, trx);
          if (other && other.id !== id) throw badRequest({ name: [RESULT_MESSAGES.sessionNameTaken] });
          await this.repo.rename(trx, id, input.name);
        }
        if (input.is_current === true) await this.repo.makeCurrent(trx, id);
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

/** The sessions service over a database, for other modules (which may not reach into this module's repository). */
export function sessionsService(db: DB): SessionsService {
  return new SessionsService(new SessionsRepository(db));
}
