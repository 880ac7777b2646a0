import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ReportCard, ReportCardPdfStorage } from '@portal/domain';
import type { Conn } from '../../db/index';
import type { ConcurrencyLimiter } from '../../lib/limiter';
import { joinPdfs } from '../../lib/pdf-join';
import { yieldToEventLoop } from '../../lib/yield';
import type { CardAudience, CardPdfsRepository } from './card-pdfs.repository';
import { renderReportCards } from './pdf';
import type { Actor } from './results.service';
import type { ReportCardService } from './report-card.service';

/**
 * The drawing's version: part of every fingerprint, so a change to pdf.ts / pdf-parts.ts (a new
 * layout, a font) makes every stored card stale. Raise it with any change to how a card is drawn.
 */
export const CARD_DRAWING_VERSION = 1;

/**
 * The fingerprint of a card's PDF: sha256 of the drawing's version and everything the card shows,
 * which is the card JSON the PDF is drawn from (scores, comments, ratings, attendance, fees, the
 * school's settings and logo, the grading key, term dates, the promotion decision, the photo), less
 * the moment it was computed (`generated_at`). Computed on each request from the card itself, so any
 * change that shows on the card changes it, whatever wrote the change (decision 050).
 */
export function cardFingerprint(card: ReportCard): string {
  return remembered(card, () => {
    const { generated_at: _generated, ...shown } = card;
    return createHash('sha256').update(`card-pdf v${CARD_DRAWING_VERSION}\n`).update(JSON.stringify(shown)).digest('hex');
  });
}

/** A class PDF's fingerprint: its cards' fingerprints in their order. */
export function classFingerprint(cards: readonly ReportCard[]): string {
  return remembered(cards, () => {
    const h = createHash('sha256').update(`class-pdf v${CARD_DRAWING_VERSION}\n`);
    for (const c of cards) h.update(cardFingerprint(c)).update('\n');
    return h.digest('hex');
  });
}

/**
 * Fingerprints of memoised cards (decision 053): a memoised card is frozen and shared by every
 * request until a write drops it, so its fingerprint is hashed once. A card that is not frozen
 * (computed for one request) is hashed every time.
 */
const fingerprints = new WeakMap<object, string>();
function remembered(of: object, hash: () => string): string {
  if (!Object.isFrozen(of)) return hash();
  let fp = fingerprints.get(of);
  if (fp === undefined) fingerprints.set(of, (fp = hash()));
  return fp;
}

/**
 * The stored files last served, by fingerprint, in the process (bounded by bytes, the oldest first):
 * a fingerprint names one file's content, so a kept file is never stale and needs no invalidation;
 * a repeat download skips reading (and decoding) the file from the database (decision 053).
 */
export class PdfBytes {
  private readonly files = new Map<string, Buffer>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(fingerprint: string): Buffer | undefined {
    return this.files.get(fingerprint);
  }

  put(fingerprint: string, pdf: Buffer): void {
    if (pdf.length > this.maxBytes / 4 || this.files.has(fingerprint)) return;
    this.files.set(fingerprint, pdf);
    this.bytes += pdf.length;
    for (const [fp, file] of this.files) {
      if (this.bytes <= this.maxBytes) break;
      this.files.delete(fp);
      this.bytes -= file.length;
    }
  }

  get size(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.bytes };
  }
}

/** Stored files kept in the process: 64 MB (about 1,900 cards, or a dozen classes and some cards). */
const KEPT_PDF_BYTES = 64 * 1024 * 1024;

/** A PDF answer: its fingerprint (the ETag) at once, the bytes only when the caller's copy is not current. */
export interface PdfAnswer {
  etag: string;
  filename: string;
  pdf: () => Promise<Buffer>;
}

/** The background renderer's one reader: a released card is read as the admin (access is checked again on every request). */
const RENDERER: Actor = { id: 0, role: 'admin' };

const cardTitle = (c: ReportCard) => `Report card ${c.student.admission_number} ${c.session.name} ${c.term_label}`;
const cardFilename = (c: ReportCard) => `report-card-${c.student.admission_number}-${c.session.name.replace('/', '-')}-${c.term}.pdf`;

type ArmKey = { session_id: number; term: string; student_class: string };

/**
 * Report-card PDFs made once (issue 37 item 3, decision 050). A released card's PDF is stored with
 * its fingerprint (`cardFingerprint`); a request computes the card (every access rule, the release
 * and the fee gate first), then its fingerprint, and serves the stored file when it matches, else
 * draws, stores and serves. An arm's class PDF is joined from its stored cards and stored with the
 * cards' fingerprints. When an arm is released its cards are drawn in the background, one at a time,
 * only while no request waits for a PDF; the queue lives in the process (a restart loses it: the
 * next request draws what is missing).
 */
export class CardPdfs {
  private readonly queue: ArmKey[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  private paused = false;
  /** The stored files last served (decision 053). */
  readonly kept = new PdfBytes(KEPT_PDF_BYTES);
  /** Cards drawn (on request or in the background) since the process started: tests read it. */
  drawn = 0;
  /** True while the background renderer waits for requests' PDFs to finish (tests read it). */
  yielding = false;

  constructor(
    private readonly cards: ReportCardService,
    private readonly repo: CardPdfsRepository,
    private readonly renders: ConcurrencyLimiter,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
    /** false (`PDF_STORE=0`): every download drawn, nothing stored or drawn in the background (the bench's "before"). */
    private readonly store = true,
  ) {}

  /** A withdrawn student's stored files, and their arms' joined files, are dropped in the withdrawal's transaction. */
  forgetStudent(conn: Conn, studentId: number): Promise<void> {
    return this.repo.forgetStudent(conn, studentId);
  }

  /** One student's term card as PDF, for whoever may read it (`ReportCardService.card` decides, before any stored file is looked up). */
  async cardPdf(actor: Actor, q: { admission_number: string; session_id: number; term: string }): Promise<PdfAnswer> {
    const card = await this.cards.card(actor, q);
    const etag = cardFingerprint(card);
    const audience: CardAudience = actor.role === 'student' ? 'student' : 'staff';
    return { etag, filename: cardFilename(card), pdf: () => this.cardFile(card, etag, audience) };
  }

  /**
   * The file of a card already computed for its reader (the result checker's PDF: a PIN's holder sees
   * what the student sees): the stored one when its fingerprint matches, else drawn and, once
   * released, stored. Drawing waits its turn among the PDF renders.
   */
  fileOf(card: ReportCard, audience: CardAudience = 'student'): Promise<Buffer> {
    return this.cardFile(card, cardFingerprint(card), audience);
  }

  /**
   * A student's transcript (the admin: `ReportCardService.transcript` checks) as one PDF: each card's
   * stored file when its fingerprint matches, else drawn and (released) stored, joined in order
   * under the transcript's title, as a class PDF is joined.
   */
  async transcriptPdf(list: readonly ReportCard[], title: string): Promise<Buffer> {
    // The student's stored files in one statement, not one per card.
    const stored = this.store && list.length ? await this.repo.ofStudent(list[0]!.student.admission_number) : [];
    const byKey = new Map(stored.map((s) => [`${s.session_id}|${s.term}|${s.fingerprint}`, s.pdf]));
    const files: Buffer[] = [];
    for (const card of list) {
      const fp = cardFingerprint(card);
      files.push(await this.cardFile(card, fp, 'staff', byKey.get(`${card.session.id}|${card.term}|${fp}`) ?? null));
    }
    return joinPdfs(files, { title });
  }

  /** An arm's cards as one PDF (staff and the admin: `classCards` checks), joined from the stored cards once released. */
  async classPdf(actor: Actor, q: ArmKey): Promise<PdfAnswer> {
    const list = await this.cards.classCards(actor, q);
    const first = list[0]!;
    const title = `Report cards ${q.student_class} ${first.session.name} ${first.term_label}`;
    const filename = `report-cards-${q.student_class.replace(' ', '')}-${first.session.name.replace('/', '-')}-${q.term}.pdf`;
    const etag = classFingerprint(list);
    const pdf = async () => {
      // Before release the cards change by the minute: drawn as one document, never stored.
      if (!first.released || !this.store) return this.renders.run(() => renderReportCards(list, { title }));
      const kept = this.kept.get(`class:${etag}`);
      if (kept) return kept;
      const stored = await this.repo.classPdf(q.session_id, q.term, q.student_class);
      let file = stored?.fingerprint === etag ? stored.pdf : undefined;
      if (!file) {
        file = await this.joinClass(list, title);
        await this.repo.putClass({ ...q, fingerprint: etag, pdf: file, rendered_at: this.stamp() });
      }
      this.kept.put(`class:${etag}`, file);
      return file;
    };
    return { etag, filename, pdf };
  }

  /** Stored files: how many and how many bytes, cards and class PDFs apart (the school's storage, decision 050). */
  async storage(): Promise<ReportCardPdfStorage> {
    const s = await this.repo.sizes();
    return {
      cards: s.cards,
      classes: s.classes,
      total_bytes: s.cards.bytes + s.classes.bytes,
      queued_arms: this.queue.length,
    };
  }

  /** Arms just released: their cards (and class PDF) drawn in the background, one card at a time. */
  released(arms: { session_id: number; term: string; classes: readonly string[] }): void {
    if (this.stopped || !this.store) return;
    for (const student_class of arms.classes) {
      if (!this.queue.some((a) => a.session_id === arms.session_id && a.term === arms.term && a.student_class === student_class)) {
        this.queue.push({ session_id: arms.session_id, term: arms.term, student_class });
      }
    }
    this.kick();
  }

  /** Arms waiting for the background renderer (the one being drawn not counted). */
  get pending(): number {
    return this.queue.length;
  }

  /** Tests: hold the background renderer (requests still draw what they need), then let it go. */
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
    this.kick();
  }

  /** Resolves when the background renderer has nothing left (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Shutdown: nothing new starts; the card being drawn finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.idle();
  }

  private kick(): void {
    if (this.running || this.paused || this.stopped || !this.queue.length) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      // Resumed or given more arms while finishing: go on.
      if (!this.paused && !this.stopped && this.queue.length) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (!this.paused && !this.stopped && this.queue.length) {
      const arm = this.queue.shift()!;
      try {
        await this.renderArm(arm);
      } catch (err) {
        // Withdrawn meanwhile, no students, a database hiccup: the next request draws what it needs.
        this.log.warn({ err, arm }, 'background report-card PDFs: arm skipped');
      }
    }
  }

  /** Waits until no request is drawing or waiting to draw a PDF: the background only takes an idle turn. */
  private async requestsFirst(): Promise<void> {
    await yieldToEventLoop();
    while (!this.stopped && (this.renders.active > 0 || this.renders.waiting > 0)) {
      this.yielding = true;
      await new Promise((r) => setTimeout(r, 5));
    }
    this.yielding = false;
  }

  private async renderArm(arm: ArmKey): Promise<void> {
    await this.requestsFirst();
    const list = await this.cards.classCards(RENDERER, arm);
    if (!list[0]?.released) return;
    const stored = await this.repo.ofCards(
      list.map((c) => c.student.admission_number),
      arm.session_id,
      arm.term,
    );
    const have = new Set(stored.map((s) => `${s.admission_number}|${s.fingerprint}`));
    for (const card of list) {
      if (this.stopped) return;
      const fp = cardFingerprint(card);
      if (have.has(`${card.student.admission_number}|${fp}`)) continue;
      await this.requestsFirst();
      if (this.stopped) return;
      await this.draw(card, fp, 'staff');
    }
    if (this.stopped) return;
    await this.requestsFirst();
    const first = list[0];
    const title = `Report cards ${arm.student_class} ${first.session.name} ${first.term_label}`;
    const etag = classFingerprint(list);
    const current = await this.repo.classPdf(arm.session_id, arm.term, arm.student_class);
    if (current?.fingerprint === etag) return;
    const file = await this.joinClass(list, title);
    await this.repo.putClass({ ...arm, fingerprint: etag, pdf: file, rendered_at: this.stamp() });
  }

  /** A card's file: the stored one when its fingerprint matches (any audience: the same card is the same file), else drawn and stored (released cards only). */
  private async cardFile(card: ReportCard, etag: string, audience: CardAudience, looked?: Buffer | null): Promise<Buffer> {
    if (!card.released || !this.store) return this.renders.run(() => renderReportCards([card], { title: cardTitle(card) }));
    const kept = this.kept.get(etag);
    if (kept) return kept;
    // `looked`: the stored file the caller already looked up (null: none matches); else one lookup here.
    const stored =
      looked !== undefined
        ? looked
        : (await this.repo.ofCards([card.student.admission_number], card.session.id, card.term)).find((s) => s.fingerprint === etag)?.pdf;
    const file = stored ?? (await this.renders.run(() => this.draw(card, etag, audience)));
    this.kept.put(etag, file);
    return file;
  }

  private async draw(card: ReportCard, fingerprint: string, audience: CardAudience): Promise<Buffer> {
    const pdf = await renderReportCards([card], { title: cardTitle(card) });
    this.drawn++;
    await this.repo.putCard({
      admission_number: card.student.admission_number,
      session_id: card.session.id,
      term: card.term,
      audience,
      fingerprint,
      pdf,
      rendered_at: this.stamp(),
    });
    return pdf;
  }

  /** The class PDF joined from the arm's stored cards, drawing (and storing) any card missing or stale. */
  private async joinClass(list: readonly ReportCard[], title: string): Promise<Buffer> {
    const first = list[0]!;
    const stored = await this.repo.ofCards(
      list.map((c) => c.student.admission_number),
      first.session.id,
      first.term,
    );
    const byKey = new Map(stored.map((s) => [`${s.admission_number}|${s.fingerprint}`, s.pdf]));
    const files: Buffer[] = [];
    for (const card of list) {
      const fp = cardFingerprint(card);
      files.push(byKey.get(`${card.student.admission_number}|${fp}`) ?? (await this.renders.run(() => this.draw(card, fp, 'staff'))));
    }
    return joinPdfs(files, { title });
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The stored report-card PDFs and their background renderer (tests hold it, wait for it, count its drawings). */
    cardPdfs: CardPdfs;
  }
}
