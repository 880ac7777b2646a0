import {
  koboToNaira,
  RESULT_PIN_MESSAGES,
  RESULT_PIN_PAGE_SIZE,
  termLabel,
  type ResultPinBatch,
  type ResultPinBatchCreate,
  type ResultPinBatchDetail,
  type ResultPinFilter,
  type ResultPinList,
  type ResultPinSold,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { nowIso } from '../../db/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import { toCsv } from '../../lib/csv';
import { yieldToEventLoop } from '../../lib/yield';
import type { SessionsService } from '../calendar/sessions.service';
import type { PeopleLookups } from '../people/people.service';
import type { SettingsService } from '../settings/settings.service';
import { pinSheetPdf, type SheetCard } from './pins.documents';
import { presentBatch, presentPin } from './pins.presenters';
import type { NewPin, PinsRepository } from './pins.repository';
import { PinSecrets } from './pin-secrets';

/** Cards hashed and sealed between two turns of the event loop. */
const PINS_PER_TURN = 500;

/** The serial printed on a card: the batch and the card's place in it ("0007-00042"). */
export const serialOf = (batchId: number, n: number) => `${String(batchId).padStart(4, '0')}-${String(n).padStart(5, '0')}`;

/**
 * Result-checker PIN batches for the admin and the bursar (issue 34, decision record 043): generating
 * a batch, its printable sheet and CSV until it is sealed, marking cards sold, the lists of cards.
 * A PIN is shown to nobody after generation except through the batch's printable copies.
 */
export class ResultPinsService {
  constructor(
    private readonly repo: PinsRepository,
    private readonly secrets: PinSecrets,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
    private readonly people: PeopleLookups,
  ) {}

  async createBatch(input: ResultPinBatchCreate, actorId: number): Promise<ResultPinBatch> {
    if (!(await this.sessions.byId(input.session_id))) throw badRequest({ session_id: [RESULT_PIN_MESSAGES.sessionNotFound] });
    const uses = input.uses ?? (await this.settings.get()).result_pin_uses;
    const id = await this.repo.transaction(async (trx) => {
      const at = nowIso();
      const batch = await this.repo.insertBatch(trx, {
        session_id: input.session_id,
        term: input.term,
        count: input.count,
        uses,
        created_at: at,
        created_by: actorId,
      });
      let wanted = Array.from({ length: input.count }, (_, i) => serialOf(batch.id, i + 1));
      // A PIN another card already has (one chance in 10^12 / the cards there are) is drawn again.
      for (let round = 0; wanted.length && round < 5; round++) {
        const fresh = await this.newPins(wanted);
        const inserted = new Set(await this.repo.insertPins(trx, batch.id, uses, fresh));
        wanted = wanted.filter((s) => !inserted.has(s));
      }
      if (wanted.length) throw new Error('result PINs: could not draw unique PINs');
      await writeAudit(trx, {
        actorUserId: actorId,
        action: 'create',
        entity: 'result_pin_batch',
        entityId: batch.id,
        after: { session_id: input.session_id, term: input.term, count: input.count, uses },
      });
      return batch.id;
    });
    return presentBatch((await this.repo.batch(id))!);
  }

  /** Draws a PIN per serial (none twice), its hash and its sealed printable copy. */
  private async newPins(serials: readonly string[]): Promise<NewPin[]> {
    const seen = new Set<string>();
    const out: NewPin[] = [];
    for (const serial of serials) {
      let pin = PinSecrets.newPin();
      while (seen.has(pin)) pin = PinSecrets.newPin();
      seen.add(pin);
      out.push({ serial, pin_hash: this.secrets.hash(pin), printable: this.secrets.seal(pin, serial) });
      if (out.length % PINS_PER_TURN === 0) await yieldToEventLoop();
    }
    return out;
  }

  async list(): Promise<ResultPinBatch[]> {
    return (await this.repo.listBatches()).map(presentBatch);
  }

  private async batchRow(id: number) {
    const row = await this.repo.batch(id);
    if (!row) throw notFound(RESULT_PIN_MESSAGES.batchNotFound);
    return row;
  }

  async detail(id: number): Promise<ResultPinBatchDetail> {
    const row = await this.batchRow(id);
    return { ...presentBatch(row), ...(await this.repo.counts(id)) };
  }

  /** The batch's cards with their PINs, opened from the printable copies; 409 once sealed. */
  private async cards(id: number, actorId: number, format: 'pdf' | 'csv') {
    const batch = await this.batchRow(id);
    if (batch.sealed_at) throw conflict(RESULT_PIN_MESSAGES.sealed);
    const rows = await this.repo.printables(id);
    const cards: SheetCard[] = [];
    for (const r of rows) {
      if (!r.printable) throw conflict(RESULT_PIN_MESSAGES.sealed);
      cards.push({ serial: r.serial, pin: this.secrets.open(r.printable, r.serial) });
      if (cards.length % PINS_PER_TURN === 0) await yieldToEventLoop();
    }
    // Who printed a batch's PINs, and when, is kept.
    await this.repo.transaction((trx) =>
      writeAudit(trx, { actorUserId: actorId, action: 'export', entity: 'result_pin_batch', entityId: id, after: { format } }),
    );
    return { batch, cards };
  }

  private static scopeOf(batch: { session_name: string; term: string | null }): string {
    return batch.term ? `${batch.session_name} ${termLabel(batch.term)}` : `${batch.session_name} (any term)`;
  }

  /** The A4 sheet: several cards a page, each with the school's name, the serial, the PIN and where to check. */
  async sheetPdf(id: number, actorId: number, checkAt: string): Promise<{ name: string; pdf: Buffer }> {
    const { batch, cards } = await this.cards(id, actorId, 'pdf');
    const school = await this.settings.get();
    const pdf = await pinSheetPdf(cards, {
      school: school.school_name,
      scope: ResultPinsService.scopeOf(batch),
      uses: batch.uses,
      checkAt,
    });
    return { name: `result-pins-batch-${id}.pdf`, pdf };
  }

  /** The printer's CSV: one card a line. */
  async cardsCsv(id: number, actorId: number, checkAt: string): Promise<{ name: string; csv: string }> {
    const { batch, cards } = await this.cards(id, actorId, 'csv');
    const school = (await this.settings.get()).school_name;
    const scope = ResultPinsService.scopeOf(batch);
    const csv = toCsv(
      cards.map((c) => [c.serial, c.pin, school, scope, batch.uses, checkAt]),
      ['serial', 'pin', 'school', 'valid_for', 'uses', 'check_at'],
    );
    return { name: `result-pins-batch-${id}.csv`, csv };
  }

  /** Erases the batch's printable copies (the PINs then live only on the printed cards); audited. */
  async seal(id: number, actorId: number): Promise<ResultPinBatchDetail> {
    await this.batchRow(id);
    const sealed = await this.repo.transaction(async (trx) => {
      const done = await this.repo.seal(trx, id, nowIso(), actorId);
      if (done) await writeAudit(trx, { actorUserId: actorId, action: 'seal', entity: 'result_pin_batch', entityId: id });
      return done;
    });
    if (!sealed) throw conflict(RESULT_PIN_MESSAGES.alreadySealed);
    return this.detail(id);
  }

  /** Marks cards sold (who, when, for how much): all of them or none; cards already sold are refused. */
  async markSold(id: number, body: ResultPinSold, actorId: number): Promise<{ sold: number }> {
    await this.batchRow(id);
    const serials = [...new Set(body.serials)];
    return this.repo.transaction(async (trx) => {
      const found = await this.repo.cardsOf(trx, id, serials);
      const known = new Set(found.map((f) => f.serial));
      const unknown = serials.filter((s) => !known.has(s));
      if (unknown.length) throw badRequest({ serials: [RESULT_PIN_MESSAGES.serialsUnknown(unknown)] });
      const sold = found.filter((f) => f.sold_at).map((f) => f.serial);
      if (sold.length) throw badRequest({ serials: [RESULT_PIN_MESSAGES.serialsSold(sold)] });
      const soldTo = body.sold_to?.trim() || null;
      await this.repo.markSold(
        trx,
        found.map((f) => f.id),
        { sold_at: nowIso(), sold_by: actorId, sold_to: soldTo, price_kobo: body.price },
      );
      await writeAudit(trx, {
        actorUserId: actorId,
        action: 'sell',
        entity: 'result_pin_batch',
        entityId: id,
        after: { cards: found.length, price: koboToNaira(body.price), sold_to: soldTo, first: serials[0], last: serials.at(-1) },
      });
      return { sold: found.length };
    });
  }

  async pins(id: number, q: { state?: ResultPinFilter; page?: number }): Promise<ResultPinList> {
    await this.batchRow(id);
    const page = q.page ?? 1;
    const { count, rows } = await this.repo.page(id, q.state, page);
    const numbers = await this.people.admissionNumbersOf(rows.flatMap((r) => (r.student_id ? [r.student_id] : [])));
    return { count, page, page_size: RESULT_PIN_PAGE_SIZE, results: rows.map((r) => presentPin(r, numbers)) };
  }
}
