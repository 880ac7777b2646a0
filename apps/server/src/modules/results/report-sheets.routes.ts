import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  applySuggestionsSchema,
  classSheetQuerySchema,
  commentSheetSavedSchema,
  commentSheetSaveSchema,
  commentSheetSchema,
  commentSuggestionsAppliedSchema,
  ratingSheetSavedSchema,
  ratingSheetSaveSchema,
  ratingSheetSchema,
  reportTermResponseSchema,
  reportTermSchema,
  reportTermsQuerySchema,
  STAFF_OR_ADMIN,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import { documentRoutes } from '../../http/document-routes';
import type { ReportSheetsService } from './report-sheets.service';
import type { ReportTermsService } from './report-terms.service';

/** The report card sheets (ratings; comments, attendance and promotion) and the term's dates. */
export function reportSheetsRoutes(
  app: FastifyInstance,
  { reportSheets: sheets, reportTerms: terms }: { reportSheets: ReportSheetsService; reportTerms: ReportTermsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['report cards'];

  const document = documentRoutes(r, tags);

  document(
    '/api/report-terms/',
    STAFF_OR_ADMIN,
    {
      load: [reportTermsQuerySchema, (_actor, query) => terms.terms(query.session_id), z.array(reportTermResponseSchema)],
      save: [reportTermSchema, (actor, body) => terms.putTerm(actor, body), reportTermResponseSchema],
    },
    ADMIN_ONLY,
  );
  // Staff here are form teachers: the service refuses anyone else (403).
  document('/api/class-ratings/', STAFF_OR_ADMIN, {
    load: [classSheetQuerySchema, (actor, query) => sheets.ratingSheet(actor, query), ratingSheetSchema],
    save: [ratingSheetSaveSchema, (actor, body) => sheets.saveRatings(actor, body), ratingSheetSavedSchema],
  });
  document('/api/class-comments/', STAFF_OR_ADMIN, {
    load: [classSheetQuerySchema, (actor, query) => sheets.commentSheet(actor, query), commentSheetSchema],
    save: [commentSheetSaveSchema, (actor, body) => sheets.saveComments(actor, body), commentSheetSavedSchema],
  });
  r.post(
    '/api/class-comments/suggestions/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags, body: applySuggestionsSchema, response: { 200: commentSuggestionsAppliedSchema } },
    },
    (req) => sheets.applySuggestions(currentActor(req), req.body),
  );
}
