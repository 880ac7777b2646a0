import type { FastifyBaseLogger } from 'fastify';
import {
  CHECK_RESULT_CODES,
  RESULT_PIN_MESSAGES,
  TERM_VALUES,
  type CheckResultInput,
  type CheckResultOptions,
  type CheckResultResponse,
  type ReportCard,
  type Term,
} from '@portal/domain';
import type { Config } from '../../config';
import { HttpError, badRequest, forbidden } from '../../http/errors';
import type { AttemptLimits, AttemptThrottle } from '../auth/attempt-throttle.service';
import type { SessionsService } from '../calendar/sessions.service';
import type { PeopleLookups } from '../people/people.service';
import type { ResultsService } from '../results/results.service';
import type { SettingsService } from '../settings/settings.service';
import type { PinCards } from './pins.ports';
import type { PinsRepository } from './pins.repository';
import type { PinSecrets } from './pin-secrets';

/** How long a check's PDF link works. */
export const PDF_LINK_SECONDS = 10 * 60;

/** What the uses log records of each check. */
type Outcome =
  'ok' | 'wrong' | 'bound_to_another' | 'exhausted' | 'other_term' | 'not_released' | 'fees_outstanding' | 'throttled' | 'disabled';

/** The throttle's counters of a check: per admission number over every address, and per address. */
export const numberKey = (admissionKey: string) => `pin-number:${admissionKey}`;
export const addressKey = (ip: string) => `pin-address:${ip}`;

const wrong = () => new HttpError(404, { detail: RESULT_PIN_MESSAGES.wrongPinOrNumber, code: CHECK_RESULT_CODES.wrong });

/**
 * The public result check (issue 34 item 10, decision record 043): an admission number and a PIN
 * show the student's released card. Refusals say as little as they must: a wrong PIN and an unknown
 * number get one answer; a PIN bound to another student says so whatever number was typed (so a
 * PIN's holder cannot learn which numbers exist). Wrong answers are counted like sign-in's (reserved
 * before the check, per number and per address; `AttemptThrottle`); a use is taken only when the card
 * is shown, in one conditional UPDATE; every check is logged.
 */
export class ResultCheckService {
  constructor(
    private readonly repo: PinsRepository,
    private readonly secrets: PinSecrets,
    private readonly throttle: AttemptThrottle,
    private readonly settings: SettingsService,
    private readonly sessions: SessionsService,
    private readonly results: ResultsService,
    private readonly people: PeopleLookups,
    private readonly cards: PinCards,
    private readonly config: Pick<Config, 'resultPinLimits'>,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  private async enabled(): Promise<boolean> {
    return (await this.settings.get()).result_pins_enabled;
  }

  /** The check page's choices: the sessions and terms with a released card (none while the check is off). */
  async options(): Promise<CheckResultOptions> {
    if (!(await this.enabled())) return { enabled: false, sessions: [] };
    const [sessions, published] = await Promise.all([this.sessions.list(), this.results.publications({})]);
    const terms = new Map<number, Set<string>>();
    for (const p of published) {
      if (!terms.has(p.session_id)) terms.set(p.session_id, new Set());
      terms.get(p.session_id)!.add(p.term);
    }
    return {
      enabled: true,
      sessions: sessions
        .filter((s) => terms.has(s.id))
        .sort((a, b) => b.name.localeCompare(a.name))
        .map((s) => ({ id: s.id, name: s.name, terms: TERM_VALUES.filter((t) => terms.get(s.id)!.has(t)) })),
    };
  }

  async check(input: CheckResultInput, ip: string): Promise<CheckResultResponse> {
    const at = () => new Date(this.now()).toISOString();
    const log = (result: Outcome, pinId: number | null, studentId: number | null) =>
      this.repo.logUse({
        pin_id: pinId,
        admission_key: input.admission_number,
        student_id: studentId,
        session_id: input.session_id,
        term: input.term,
        ip,
        result,
        created_at: at(),
      });
    if (!(await this.enabled())) {
      await log('disabled', null, null);
      throw forbidden(RESULT_PIN_MESSAGES.disabled, CHECK_RESULT_CODES.disabled);
    }
    const limits = this.config.resultPinLimits;
    const counters: { key: string; limits: AttemptLimits }[] = [
      { key: numberKey(input.admission_number), limits: limits.perNumber },
      { key: addressKey(ip), limits: limits.perAddress },
    ];
    if (!(await this.throttle.reserveAll(counters))) {
      await log('throttled', null, null);
      this.log.warn({ event: 'result_check_throttled', ip }, 'result check refused: too many wrong attempts');
      const minutes = Math.ceil(Math.max(limits.perNumber.blockSeconds, limits.perAddress.blockSeconds) / 60);
      throw new HttpError(
        429,
        { detail: RESULT_PIN_MESSAGES.tooManyAttempts(minutes), code: CHECK_RESULT_CODES.throttled },
        { 'retry-after': String(minutes * 60) },
      );
    }
    const keys = counters.map((c) => c.key);
    // Not a guess: the attempt is given back. A guess: counted (and the counters blocked at their limit).
    const refuse = async (result: Outcome, err: HttpError, pinId: number | null, studentId: number | null): Promise<never> => {
      if (result === 'wrong') await this.throttle.failAll(counters);
      else await this.throttle.releaseAll(keys);
      await log(result, pinId, studentId);
      this.log.info({ event: 'result_check_refused', result, ip }, 'result check refused');
      throw err;
    };

    const [pin, student] = await Promise.all([
      this.repo.pinByHash(this.secrets.hash(input.pin)),
      this.people.studentByAdmissionKey(input.admission_number),
    ]);
    if (!pin) return refuse('wrong', wrong(), null, student?.id ?? null);
    const boundToAnother = () =>
      new HttpError(403, { detail: RESULT_PIN_MESSAGES.boundToAnother, code: CHECK_RESULT_CODES.boundToAnother });
    if (pin.student_id !== null && pin.student_id !== student?.id) return refuse('bound_to_another', boundToAnother(), pin.id, null);
    if (!student) return refuse('wrong', wrong(), pin.id, null);
    if (pin.session_id !== input.session_id || (pin.term !== null && pin.term !== input.term)) {
      return refuse(
        'other_term',
        new HttpError(400, { detail: RESULT_PIN_MESSAGES.otherTerm, code: CHECK_RESULT_CODES.otherTerm }),
        pin.id,
        student.id,
      );
    }
    const exhausted = () => new HttpError(403, { detail: RESULT_PIN_MESSAGES.exhausted, code: CHECK_RESULT_CODES.exhausted });
    if (pin.uses >= pin.max_uses) return refuse('exhausted', exhausted(), pin.id, student.id);

    let card: ReportCard;
    try {
      // The card as the student sees it: never before release, and the fee gate (decision 042) when on.
      card = await this.cards(student, input.session_id, input.term);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 403) return refuse('fees_outstanding', err, pin.id, student.id);
      if (err instanceof HttpError && err.statusCode === 404) {
        const notReleased = new HttpError(404, { detail: RESULT_PIN_MESSAGES.notReleased, code: CHECK_RESULT_CODES.notReleased });
        return refuse('not_released', notReleased, pin.id, student.id);
      }
      await this.throttle.releaseAll(keys);
      throw err;
    }
    // The use is taken only now, when the card is shown: atomically, binding the PIN at its first use.
    const uses = await this.repo.takeUse(pin.id, student.id, at());
    if (uses === undefined) {
      const now = await this.repo.pinState(pin.id);
      if (now && now.student_id !== null && now.student_id !== student.id)
        return refuse('bound_to_another', boundToAnother(), pin.id, student.id);
      return refuse('exhausted', exhausted(), pin.id, student.id);
    }
    await this.throttle.releaseAll(keys);
    await log('ok', pin.id, student.id);
    const link: PdfLink = {
      s: student.id,
      u: student.user_id,
      a: student.admission_number,
      i: input.session_id,
      t: input.term,
      e: this.now() + PDF_LINK_SECONDS * 1000,
    };
    const token = this.secrets.signLink(link);
    return { card, uses_left: Math.max(0, pin.max_uses - uses), pdf_token: token };
  }

  /** The card a check's PDF link names, while the link is fresh (no use taken: the check took it). */
  async cardOfLink(token: string): Promise<ReportCard> {
    const invalid = () => badRequest({ token: [RESULT_PIN_MESSAGES.tokenInvalid] });
    const p = this.secrets.readLink(token) as Partial<PdfLink> | null;
    if (!p || typeof p.s !== 'number' || typeof p.u !== 'number' || typeof p.a !== 'string' || typeof p.i !== 'number') throw invalid();
    if (typeof p.e !== 'number' || p.e < this.now() || !TERM_VALUES.includes(p.t as Term)) throw invalid();
    if (!(await this.enabled())) throw forbidden(RESULT_PIN_MESSAGES.disabled, CHECK_RESULT_CODES.disabled);
    return this.cards({ user_id: p.u, admission_number: p.a }, p.i, p.t as Term);
  }
}

/** What a PDF link carries (signed): the student (id, account, number), the session and term, when it ends (ms). */
interface PdfLink {
  s: number;
  u: number;
  a: string;
  i: number;
  t: Term;
  e: number;
}
