import type { Conn, DB } from '../../db/index';
import './card-pdfs.tables';

export type CardAudience = 'student' | 'staff';

/** A stored card PDF: whose (by admission number), its audience, fingerprint and bytes. */
export interface StoredCardPdf {
  admission_number: string;
  audience: string;
  fingerprint: string;
  pdf: Buffer;
}

/** SQL of the stored report-card PDFs (migration 0045, decision 050). Cards are named by admission number, found with their student in the same statement. */
export class CardPdfsRepository {
  constructor(readonly db: DB) {}

  /** The stored files of students' term cards (at most one per audience each), one statement. */
  async ofCards(admissionNumbers: readonly string[], sessionId: number, term: string): Promise<StoredCardPdf[]> {
    if (!admissionNumbers.length) return [];
    const rows = await this.db
      .selectFrom('report_card_pdfs as p')
      .innerJoin('students as s', 's.id', 'p.student_id')
      .select(['s.admission_number', 'p.audience', 'p.fingerprint', 'p.pdf'])
      .where('p.session_id', '=', sessionId)
      .where('p.term', '=', term)
      .where('s.admission_number', 'in', [...admissionNumbers])
      .execute();
    return rows.map((r) => ({ ...r, pdf: asBuffer(r.pdf) }));
  }

  /** Every stored file of one student's term cards (a transcript), one statement. */
  async ofStudent(admissionNumber: string): Promise<(StoredCardPdf & { session_id: number; term: string })[]> {
    const rows = await this.db
      .selectFrom('report_card_pdfs as p')
      .innerJoin('students as s', 's.id', 'p.student_id')
      .select(['s.admission_number', 'p.session_id', 'p.term', 'p.audience', 'p.fingerprint', 'p.pdf'])
      .where('s.admission_number', '=', admissionNumber)
      .execute();
    return rows.map((r) => ({ ...r, pdf: asBuffer(r.pdf) }));
  }

  /** Stores (or replaces) a card's file for an audience. */
  async putCard(row: {
    admission_number: string;
    session_id: number;
    term: string;
    audience: CardAudience;
    fingerprint: string;
    pdf: Buffer;
    rendered_at: string;
  }): Promise<void> {
    const { admission_number, ...rest } = row;
    // Only on a render (the rare path): the student's id, then the file.
    const student = await this.db.selectFrom('students').select('id').where('admission_number', '=', admission_number).executeTakeFirst();
    if (!student) return;
    const values = { ...rest, student_id: student.id, bytes: row.pdf.length };
    await this.db
      .insertInto('report_card_pdfs')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['student_id', 'session_id', 'term', 'audience']).doUpdateSet({
          fingerprint: values.fingerprint,
          pdf: values.pdf,
          bytes: values.bytes,
          rendered_at: values.rendered_at,
        }),
      )
      .execute();
  }

  async classPdf(sessionId: number, term: string, arm: string): Promise<{ fingerprint: string; pdf: Buffer } | undefined> {
    const row = await this.db
      .selectFrom('report_class_pdfs')
      .select(['fingerprint', 'pdf'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('student_class', '=', arm)
      .executeTakeFirst();
    return row ? { fingerprint: row.fingerprint, pdf: asBuffer(row.pdf) } : undefined;
  }

  async putClass(row: { session_id: number; term: string; student_class: string; fingerprint: string; pdf: Buffer; rendered_at: string }) {
    const values = { ...row, bytes: row.pdf.length };
    await this.db
      .insertInto('report_class_pdfs')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['session_id', 'term', 'student_class']).doUpdateSet({
          fingerprint: values.fingerprint,
          pdf: values.pdf,
          bytes: values.bytes,
          rendered_at: values.rendered_at,
        }),
      )
      .execute();
  }

  /**
   * Drops a student's stored card files and the joined files of every arm they were ever in (a
   * withdrawal takes them off those arms' class PDFs): derived data, redrawn if ever asked again.
   * In the caller's transaction, so the files go with the status change or not at all.
   */
  async forgetStudent(conn: Conn, studentId: number): Promise<void> {
    await conn.deleteFrom('report_card_pdfs').where('student_id', '=', studentId).execute();
    await conn
      .deleteFrom('report_class_pdfs')
      .where('student_class', 'in', (eb) =>
        eb
          .selectFrom('student_enrolments')
          .select('student_class')
          .where('student_id', '=', studentId)
          .union(eb.selectFrom('students').select('student_class').where('id', '=', studentId)),
      )
      .execute();
  }

  /** How many files are stored and their bytes, cards and classes apart (the school's storage). */
  async sizes(): Promise<{ cards: { files: number; bytes: number }; classes: { files: number; bytes: number } }> {
    const [cards, classes] = await Promise.all([
      this.db
        .selectFrom('report_card_pdfs')
        .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.sum<number | string | null>('bytes').as('bytes')])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('report_class_pdfs')
        .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.sum<number | string | null>('bytes').as('bytes')])
        .executeTakeFirstOrThrow(),
    ]);
    const n = (r: { files: number | string; bytes: number | string | null }) => ({ files: Number(r.files), bytes: Number(r.bytes ?? 0) });
    return { cards: n(cards), classes: n(classes) };
  }
}

function asBuffer(b: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b);
}
