import {
  DISCOUNT_MESSAGES,
  PAYMENT_MESSAGES,
  discountLabel,
  feeItemKey,
  koboToNaira,
  percentToBasisPoints,
  personName,
  type Discount,
  type DiscountBasis,
  type DiscountData,
  type DiscountKind,
  type Term,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { nowIso, inTransaction } from '../../db/index';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';
import type { DiscountRow, DiscountsRepository } from './discounts.repository';
import type { FeesService, StudentDues } from './fees.service';

type Actor = Pick<AuthUser, 'id' | 'role'>;

/** The stored names of a discount's items (JSON); unreadable = every item, as the balance rule reads it. */
function storedItems(items: string): string[] {
  try {
    const names = JSON.parse(items) as unknown;
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

function labelOf(r: Pick<DiscountRow, 'kind' | 'term' | 'basis' | 'percent_bp' | 'amount_kobo' | 'items'>): string {
  return discountLabel({
    kind: r.kind as DiscountKind,
    term: (r.term as Term | null) ?? null,
    basis: r.basis as DiscountBasis,
    percent_bp: Number(r.percent_bp),
    amount_kobo: Number(r.amount_kobo),
    items: storedItems(r.items),
  });
}

/** One discount in force for a student, with what it takes now per term (kobo). */
export interface DiscountShareKobo {
  id: number;
  label: string;
  /** The discount's own term (null: the whole session). */
  term: Term | null;
  byTerm: Partial<Record<Term, number>>;
  kobo: number;
}

/**
 * Discounts and scholarships: given by the bursar on compulsory fee items of the
 * student's class, revoked with a reason (never edited or deleted). What a discount takes is never
 * stored: it is read from the one balance rule (`FeesService.studentDues`), so it follows the fee items.
 */
export class DiscountsService {
  constructor(
    private readonly repo: DiscountsRepository,
    private readonly fees: FeesService,
    private readonly sessions: SessionsService,
  ) {}

  private async studentOrRefuse(admissionNumber: string) {
    const s = await this.repo.student(admissionNumber);
    if (!s) throw badRequest({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    return s;
  }

  private async sessionOrRefuse(id: number) {
    const s = await this.sessions.byId(id);
    if (!s) throw badRequest({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    return s;
  }

  /** Rows as the API shows them: each with what it takes now (0 once revoked), from the students' dues. */
  private async present(rows: readonly DiscountRow[]): Promise<Discount[]> {
    const sessionIds = [...new Set(rows.map((r) => r.session_id))];
    const [sessions, ...duesBySession] = await Promise.all([
      this.sessions.list(),
      ...sessionIds.map((sid) => {
        const students = new Map(rows.filter((r) => r.session_id === sid).map((r) => [r.student_id, r.student_class]));
        return this.fees.studentDues(
          sid,
          [...students].map(([id, student_class]) => ({ id, student_class })),
        );
      }),
    ]);
    const taken = new Map<number, number>();
    for (const dues of duesBySession)
      for (const d of dues.values()) for (const t of d.takes) taken.set(t.discount_id, (taken.get(t.discount_id) ?? 0) + t.kobo);
    const sessionName = new Map(sessions.map((s) => [s.id, s.name]));
    return rows.map((r) => {
      const id = Number(r.id);
      const fixed = r.basis === 'fixed';
      return {
        id,
        admission_number: r.admission_number,
        full_name: personName(r),
        student_class: r.student_class,
        session_id: r.session_id,
        session: sessionName.get(r.session_id) ?? '',
        term: (r.term as Term | null) ?? null,
        kind: r.kind as DiscountKind,
        label: labelOf(r),
        basis: r.basis as DiscountBasis,
        percent: fixed ? null : Number(r.percent_bp) / 100,
        amount: fixed ? koboToNaira(Number(r.amount_kobo)) : null,
        items: storedItems(r.items),
        reason: r.reason,
        value: r.revoked_at ? 0 : koboToNaira(taken.get(id) ?? 0),
        given_by: r.given_by,
        given_at: r.given_at,
        revoked_at: r.revoked_at,
        revoked_by: r.revoked_at ? r.revoked_by : null,
        revoke_reason: r.revoke_reason,
      };
    });
  }

  private async one(id: number): Promise<Discount> {
    const [row] = await this.repo.list({ id, includeRevoked: true });
    if (!row) throw notFound(DISCOUNT_MESSAGES.discountNotFound);
    return (await this.present([row]))[0]!;
  }

  async list(q: { admission_number?: string; session_id?: number; include_revoked?: 'true' | 'false' }): Promise<Discount[]> {
    const [student] = await Promise.all([
      q.admission_number ? this.studentOrRefuse(q.admission_number) : undefined,
      q.session_id !== undefined ? this.sessionOrRefuse(q.session_id) : undefined,
    ]);
    return this.present(
      await this.repo.list({ studentId: student?.id, sessionId: q.session_id, includeRevoked: q.include_revoked === 'true' }),
    );
  }

  async give(actor: Actor, input: DiscountData): Promise<Discount> {
    const [student, session] = await Promise.all([this.studentOrRefuse(input.admission_number), this.sessionOrRefuse(input.session_id)]);
    // The items it may name: the compulsory items of the student's class in the session (the term's, if one).
    const inScope = (await this.fees.compulsoryItems(session.id, student.student_class)).filter(
      (i) => input.term === null || i.term === input.term,
    );
    if (!inScope.length) throw badRequest({ items: [DISCOUNT_MESSAGES.noItems] });
    const nameOf = new Map<string, string>();
    for (const i of inScope) if (!nameOf.has(feeItemKey(i.name))) nameOf.set(feeItemKey(i.name), i.name);
    const unknown = input.items.find((n) => !nameOf.has(feeItemKey(n)));
    if (unknown !== undefined) throw badRequest({ items: [DISCOUNT_MESSAGES.itemUnknown(unknown)] });
    // Stored as the schedule spells them, so the label reads as the fee items do.
    const items = input.items.map((n) => nameOf.get(feeItemKey(n))!);
    const values = {
      student_id: student.id,
      session_id: session.id,
      term: input.term,
      kind: input.kind,
      basis: input.basis,
      percent_bp: input.basis === 'percent' ? percentToBasisPoints(input.percent ?? 0) : 0,
      amount_kobo: input.basis === 'fixed' ? (input.amount ?? 0) : 0,
      items: JSON.stringify(items),
      reason: input.reason,
      given_by: actor.id,
      given_at: nowIso(),
    };
    const id = await inTransaction(this.repo.db, async (trx) => {
      const newId = await this.repo.insert(trx, values);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'fee_discount.give',
        entity: 'fee_discount',
        entityId: newId,
        after: { ...values, items, admission_number: student.admission_number, session: session.name },
      });
      return newId;
    });
    return this.one(id);
  }

  /** Once only: the update takes a discount still in force, so of two racing revokes one changes the row. */
  async revoke(actor: Actor, id: number, reason: string): Promise<Discount> {
    await inTransaction(this.repo.db, async (trx) => {
      const [row] = await this.repo.list({ id, includeRevoked: true }, trx);
      if (!row) throw notFound(DISCOUNT_MESSAGES.discountNotFound);
      if (row.revoked_at) throw conflict(DISCOUNT_MESSAGES.alreadyRevoked);
      const at = nowIso();
      if (!(await this.repo.revoke(trx, id, { revoked_by: actor.id, revoked_at: at, revoke_reason: reason })))
        throw conflict(DISCOUNT_MESSAGES.alreadyRevoked);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'fee_discount.revoke',
        entity: 'fee_discount',
        entityId: id,
        before: { revoked_at: null, label: labelOf(row), admission_number: row.admission_number },
        after: { revoked_at: at, revoke_reason: reason },
      });
    });
    return this.one(id);
  }

  /**
   * A student's discounts in force in a session with what each takes per term (the statement's,
   * receipt's and payment form's), from the student's dues: the balance rule's two queries, no more.
   */
  async sharesOf(
    sessionId: number,
    student: { id: number; student_class: string },
  ): Promise<{ dues: StudentDues | undefined; shares: DiscountShareKobo[] }> {
    const dues = (await this.fees.studentDues(sessionId, [student])).get(student.id);
    const shares = (dues?.discounts ?? []).map((r): DiscountShareKobo => {
      const byTerm: Partial<Record<Term, number>> = {};
      let kobo = 0;
      for (const t of dues?.takes ?? []) {
        if (t.discount_id !== Number(r.id)) continue;
        byTerm[t.term] = (byTerm[t.term] ?? 0) + t.kobo;
        kobo += t.kobo;
      }
      return { id: Number(r.id), label: labelOf(r), term: (r.term as Term | null) ?? null, byTerm, kobo };
    });
    return { dues, shares };
  }
}
