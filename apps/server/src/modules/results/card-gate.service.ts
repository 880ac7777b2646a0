import {
  feeGateVerdict,
  feesOutstandingBody,
  FEE_GATE_MESSAGES,
  RESULT_MESSAGES,
  termLabel,
  type CardFeeRelease,
  type CardFeeReleaseInput,
  type FeeGateVerdict,
  type Role,
  type Term,
  personName,
} from '@portal/domain';
import { HttpError, conflict, notFound } from '../../http/errors';
import { inTransaction, nowIso, type DB } from '../../db/index';
import { writeAudit } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import type { SettingsService } from '../settings/settings.service';
import type { SessionRows } from '../calendar/sessions.service';
import type { PeopleLookups } from '../people/people.service';
import type { CardGateFees } from './results.ports';
import type { CardFeeReleasesRepository } from './card-fee-releases.repository';

/** One student's term card the gate is asked about: the student's arm in that session. */
export interface GatedCard {
  student: { id: number; student_class: string };
  /** The card's session (its id alone is looked up). */
  session: { id: number; name: string } | number;
  term: Term;
  /** Who is looking: a parent acting for a child is a student here (the access scope's `actingFor`). */
  role: Role;
}

/** The gate's answer for one card, in kobo, and whether it was opened regardless of fees. */
export type CardGateAnswer = FeeGateVerdict & { gated: boolean; released: boolean };

/** Roles the gate applies to: a student, and a parent (directly or acting for the child). */
const GATED_ROLES: ReadonlySet<Role> = new Set<Role>(['student', 'parent']);

/**
 * THE fee gate (issue 34 item 7, docs/decisions/042): whether a student (or a parent for the child)
 * may see a term's report card. One rule for every way to a card: the card (`ReportCardService`), its
 * PDF, the server-rendered page (it reads the card's API), class PDFs, and the result-checker PIN
 * page (`assertMaySee`). Staff and the admin are never gated; the school's setting off means no gate;
 * a card the admin or the bursar opened with a reason is open. The term's figures come from payments
 * through results' `CardGateFees` port. Nothing is cached: a payment opens the card on the next read.
 */
export class CardGate {
  constructor(
    private readonly db: DB,
    private readonly settings: SettingsService,
    private readonly sessions: SessionRows,
    private readonly people: PeopleLookups,
    private readonly fees: CardGateFees,
    private readonly repo: CardFeeReleasesRepository,
  ) {}

  private async sessionOf(s: GatedCard['session']): Promise<{ id: number; name: string }> {
    if (typeof s !== 'number') return s;
    const row = await this.sessions.get(s);
    if (!row) throw notFound(RESULT_MESSAGES.sessionNotFound);
    return { id: row.id, name: row.name };
  }

  /**
   * The gate's answers for several students' cards of one term (a class PDF): one read of the
   * setting, one of the releases, one of payments' figures for all of them.
   */
  async answers(q: Omit<GatedCard, 'student'> & { students: readonly GatedCard['student'][] }): Promise<Map<number, CardGateAnswer>> {
    const open = (released: boolean): CardGateAnswer => ({
      open: true,
      gated: false,
      released,
      owed_kobo: 0,
      required_kobo: 0,
      paid_kobo: 0,
    });
    const out = new Map<number, CardGateAnswer>();
    if (!GATED_ROLES.has(q.role) || !q.students.length) {
      for (const s of q.students) out.set(s.id, open(false));
      return out;
    }
    const school = await this.settings.get();
    if (!school.results_fee_gate) {
      for (const s of q.students) out.set(s.id, open(false));
      return out;
    }
    const session = await this.sessionOf(q.session);
    const ids = q.students.map((s) => s.id);
    const [released, standing] = await Promise.all([
      this.repo.releasedAmong(session.id, q.term, ids),
      this.fees({ session, term: q.term, students: q.students }),
    ]);
    for (const s of q.students) {
      if (released.has(s.id)) {
        out.set(s.id, open(true));
        continue;
      }
      const v = feeGateVerdict(standing.get(s.id) ?? { charged_kobo: 0, paid_kobo: 0 }, school.results_fee_gate_percent);
      out.set(s.id, { ...v, gated: !v.open, released: false });
    }
    return out;
  }

  /** The gate's answer for one card. */
  async answer(card: GatedCard): Promise<CardGateAnswer> {
    return (await this.answers({ ...card, students: [card.student] })).get(card.student.id)!;
  }

  /**
   * 403 `{detail, code: 'fees_outstanding', owed, required, paid}` (naira) unless the card may be
   * seen. The one check every way to a card calls (the PIN check included).
   */
  async assertMaySee(card: GatedCard): Promise<void> {
    const a = await this.answer(card);
    if (a.gated) throw new HttpError(403, { ...feesOutstandingBody(a, termLabel(card.term)) });
  }

  /** The same for several cards of one term: refused when any of them is gated. */
  async assertMaySeeAll(q: Omit<GatedCard, 'student'> & { students: readonly GatedCard['student'][] }): Promise<void> {
    for (const a of (await this.answers(q)).values()) {
      if (a.gated) throw new HttpError(403, { ...feesOutstandingBody(a, termLabel(q.term)) });
    }
  }

  /** Opens a student's term card regardless of fees, with a reason: one row and its audit entry. */
  async release(input: CardFeeReleaseInput, actorId: number): Promise<CardFeeRelease> {
    const [student, session] = await Promise.all([
      this.people.studentByAdmission(input.admission_number),
      this.sessions.get(input.session_id),
    ]);
    if (!student) throw notFound(RESULT_MESSAGES.studentNotFound(input.admission_number));
    if (!session) throw notFound(RESULT_MESSAGES.sessionNotFound);
    try {
      const id = await inTransaction(this.db, async (trx) => {
        const already = await this.repo.releasedAmong(session.id, input.term, [student.id], trx);
        if (already.size) throw conflict(FEE_GATE_MESSAGES.alreadyReleased);
        const row = await this.repo.insert(trx, {
          student_id: student.id,
          session_id: session.id,
          term: input.term,
          reason: input.reason,
          created_by: actorId,
          created_at: nowIso(),
        });
        await writeAudit(trx, {
          actorUserId: actorId,
          action: 'card_fee_release.create',
          entity: 'card_fee_release',
          entityId: row.id,
          after: { admission_number: student.admission_number, session_id: session.id, term: input.term, reason: input.reason },
        });
        return row.id;
      });
      return (await this.releases(session.id, input.term)).find((r) => r.id === id)!;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(FEE_GATE_MESSAGES.alreadyReleased);
      throw err;
    }
  }

  /** The cards opened regardless of fees in a session (one term, or all), newest first. */
  async releases(sessionId: number, term?: Term): Promise<CardFeeRelease[]> {
    const rows = await this.repo.list(sessionId, term);
    return rows.map((r) => ({
      id: r.id,
      admission_number: r.admission_number,
      student_name: personName(r),
      student_class: r.student_class,
      session_id: r.session_id,
      term: r.term as Term,
      reason: r.reason,
      created_by: r.created_by ?? '',
      created_at: r.created_at,
    }));
  }
}
