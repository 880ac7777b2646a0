import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scoreSheetImportSchema, scoreSheetQuerySchema, scoreSheetSaveSchema, STAFF_OR_ADMIN } from '@portal/domain';
import { sendAttachment } from '../../http/attachment';
import { currentActor } from '../../http/auth';
import { scoreCsvFileName, scoreTemplateCsv } from './score-csv';
import type { ScoreSheetService } from './score-sheet.service';

/** The class score grid: load, save (one row or the whole sheet), CSV template and import. */
export function scoreSheetRoutes(app: FastifyInstance, { scoreSheets: sheets }: { scoreSheets: ScoreSheetService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['score sheet'];

  r.get('/api/score-sheet/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: scoreSheetQuerySchema } }, (req) =>
    sheets.load(currentActor(req), req.query),
  );
  r.put('/api/score-sheet/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: scoreSheetSaveSchema } }, (req) =>
    sheets.save(currentActor(req), req.body),
  );
  r.get(
    '/api/score-sheet/csv/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: scoreSheetQuerySchema } },
    async (req, reply) => {
      const sheet = await sheets.load(currentActor(req), req.query);
      return sendAttachment(reply, 'csv', scoreCsvFileName(sheet), scoreTemplateCsv(sheet));
    },
  );
  r.post(
    '/api/score-sheet/import/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: scoreSheetImportSchema } },
    async (req, reply) => {
      const out = await sheets.importCsv(currentActor(req), req.body);
      return reply.status(out.status).send(out.preview);
    },
  );
}
