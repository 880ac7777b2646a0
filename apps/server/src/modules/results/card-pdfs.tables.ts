/** A released report card's stored PDF (migration 0045, decision 050): one per student's term card and audience. */
export interface ReportCardPdfsTable {
  student_id: number;
  session_id: number;
  term: string;
  /** 'student' (the view a student or parent gets: unreleased terms hidden) or 'staff'. */
  audience: string;
  /** sha256 (hex) of everything the card shows and the drawing's version (`card-pdfs.service.ts`). */
  fingerprint: string;
  pdf: Buffer;
  bytes: number;
  rendered_at: string;
}

/** A released arm's cards as one stored PDF, assembled from the stored cards (migration 0045). */
export interface ReportClassPdfsTable {
  session_id: number;
  term: string;
  student_class: string;
  /** sha256 (hex) of the cards' fingerprints in their order. */
  fingerprint: string;
  pdf: Buffer;
  bytes: number;
  rendered_at: string;
}

declare module '../../db/schema' {
  interface Database {
    report_card_pdfs: ReportCardPdfsTable;
    report_class_pdfs: ReportClassPdfsTable;
  }
}
