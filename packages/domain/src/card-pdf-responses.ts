import { z } from 'zod';

/** Files and bytes of one kind of stored PDF. */
const storedFilesSchema = z.object({ files: z.number().int(), bytes: z.number().int() });

/**
 * GET /api/report-card-pdfs/storage/ (the admin): what the stored report-card PDFs take in the
 * school's database (decision 050), cards and class PDFs apart, and the arms the background
 * renderer has still to draw in this process.
 */
export const reportCardPdfStorageSchema = z
  .object({
    cards: storedFilesSchema,
    classes: storedFilesSchema,
    total_bytes: z.number().int(),
    queued_arms: z.number().int(),
  })
  .meta({ id: 'ReportCardPdfStorage' });
export type ReportCardPdfStorage = z.infer<typeof reportCardPdfStorageSchema>;
