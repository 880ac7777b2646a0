import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_ONLY,
  applySuggestionsSchema,
  classSheetQuerySchema,
  commentSheetSaveSchema,
  ratingSheetSaveSchema,
  reportTermSchema,
  reportTermsQuerySchema,
  STAFF_OR_ADMIN,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import type { ReportSheetsService } from './report-sheets.service';
import type { ReportTermsService } from './report-terms.service';

/** The report card sheets (ratings; comments, attendance and promotion) and the term's dates. */
export function reportSheetsRoutes(
  app: FastifyInstance,
  { reportSheets: sheets, reportTerms: terms }: { reportSheets: ReportSheetsService; reportTerms: ReportTermsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['report cards'];

  r.get('/api/report-terms/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: reportTermsQuerySchema } }, (req) =>
    terms.terms(req.query.session_id),
  );
  r.put('/api/report-terms/', { config: { auth: ADMIN_ONLY }, schema: { tags, body: reportTermSchema } }, (req) =>
    terms.putTerm(currentActor(req), req.body),
  );

  // Staff here are form teachers: the service refuses anyone else (403).
  r.get('/api/class-ratings/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: classSheetQuerySchema } }, (req) =>
    sheets.ratingSheet(currentActor(req), req.query),
  );
  r.put('/api/class-ratings/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: ratingSheetSaveSchema } }, (req) =>
    sheets.saveRatings(currentActor(req), req.body),
  );
  r.get('/api/class-comments/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: classSheetQuerySchema } }, (req) =>
    sheets.commentSheet(currentActor(req), req.query),
  );
  r.put('/api/class-comments/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: commentSheetSaveSchema } }, (req) =>
    sheets.saveComments(currentActor(req), req.body),
  );
  r.post('/api/class-comments/suggestions/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: applySuggestionsSchema } }, (req) =>
    sheets.applySuggestions(currentActor(req), req.body),
  );
}
