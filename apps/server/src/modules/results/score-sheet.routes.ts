import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  badRequestSchema,
  scoreImportPreviewSchema,
  scoreSheetImportSchema,
  scoreSheetQuerySchema,
  scoreSheetSaveResultSchema,
  scoreSheetSaveSchema,
  scoreSheetSchema,
  STAFF_OR_ADMIN,
} from '@portal/domain';
import { sendAttachment } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import { currentActor } from '../../http/auth';
import { documentRoutes } from '../../http/document-routes';
import { scoreCsvFileName, scoreTemplateCsv } from './score-csv';
import type { ScoreSheetService } from './score-sheet.service';

/** The class score grid: load, save (one row or the whole sheet), CSV template and import. */
export function scoreSheetRoutes(app: FastifyInstance, { scoreSheets: sheets }: { scoreSheets: ScoreSheetService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['score sheet'];

  documentRoutes(r, tags)('/api/score-sheet/', STAFF_OR_ADMIN, {
    load: [scoreSheetQuerySchema, (actor, query) => sheets.load(actor, query), scoreSheetSchema],
    save: [scoreSheetSaveSchema, (actor, body) => sheets.save(actor, body), scoreSheetSaveResultSchema],
  });
  r.get(
    '/api/score-sheet/csv/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags,
        querystring: scoreSheetQuerySchema,
        response: { 200: binaryResponse('text/csv', 'The score sheet as a CSV template to fill in') },
      },
    },
    async (req, reply) => {
      const sheet = await sheets.load(currentActor(req), req.query);
      return sendAttachment(reply, 'csv', scoreCsvFileName(sheet), scoreTemplateCsv(sheet));
    },
  );
  // 200: applied or a dry run; 400: refused, with the same preview listing its errors (or the body's own field errors).
  r.post(
    '/api/score-sheet/import/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags, body: scoreSheetImportSchema, response: { 200: scoreImportPreviewSchema, 400: z.union([scoreImportPreviewSchema, badRequestSchema]) } },
    },
    async (req, reply) => {
      const { status, preview } = await sheets.importCsv(currentActor(req), req.body);
      return reply.status(status as 200 | 400).send(preview);
    },
  );
}
