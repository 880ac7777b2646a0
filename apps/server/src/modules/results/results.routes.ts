import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { AccessScope } from '../access/scope.service';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParams,
  admissionNumberParams,
  ADMIN_ONLY,
  admissionNumberField,
  ANY_ROLE,
  assessmentSchemeInputSchema,
  classField,
  classTermQuerySchema,
  gradingScaleSchema,
  levelParamSchema,
  type Level,
  publicationSchema,
  reasonField,
  reportCardQuerySchema,
  reportCardSchema,
  resultAuditEntrySchema,
  resultPatchSchema,
  resultSaveResponseSchema,
  resultSchema,
  resultStudentSchema,
  resultTermStatusSchema,
  publicationResponseSchema,
  gradingScaleResponseSchema,
  gradingScaleSavedSchema,
  gradingScalePreviewSchema,
  assessmentSchemeSchema,
  assessmentSchemeSavedSchema,
  assessmentSchemePreviewSchema,
  broadsheetSchema,
  cardFeeReleaseResponseSchema,
  resultQuerySchema,
  resultSaveSchema,
  sessionIdField,
  STAFF_OR_ADMIN,
  termField,
  termQuerySchema,
  cardFeeReleaseSchema,
  cardFeeReleaseQuerySchema,
  reportCardPdfStorageSchema,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import type { ZodApp } from '../../http/write-route';
import { sendAttachment, sendStoredAttachment } from '../../http/attachment';
import { binaryResponse, noContent, notModified } from '../../http/response-schemas';
import type { AssessmentService } from './assessment.service';
import { currentActor, currentUser } from '../../http/auth';
import type { GradingService } from './grading.service';
import { broadsheetCsv, broadsheetJson, type BroadsheetService } from './broadsheet.service';
import type { ReportCardService } from './report-card.service';
import type { ResultsService } from './results.service';
import type { CardGate } from './card-gate.service';
import type { CardPdfs } from './card-pdfs.service';

const deleteQuery = z.object({ version: z.coerce.number().int().min(1).optional(), reason: reasonField });

const sessionQuery = z.object({ session_id: sessionIdField.optional() });

/**
 * A setting kept per class level and read for a session (grading scales, assessment schemes) at
 * /api/{path}/: every signed-in user reads the list; the admin saves a level's, or first previews
 * what saving it would change.
 */
function perLevelRoutes<B extends z.ZodType, L extends z.ZodType, S extends z.ZodType, P extends z.ZodType>(
  r: ZodApp,
  path: string,
  tag: string,
  body: B,
  answers: { list: L; put: S; preview: P },
  setting: {
    list: (sessionId: number | undefined) => Promise<z.input<L>>;
    put: (level: Level, body: z.infer<B>, actorId: number) => Promise<z.input<S>>;
    preview: (level: Level, body: z.infer<B>) => Promise<z.input<P>>;
  },
): void {
  const tags = [tag];
  const level = { config: { auth: ADMIN_ONLY }, schema: { tags, params: levelParamSchema, body } };
  // The type provider cannot resolve a generic schema's output: the request parts are those the
  // schemas checked, and the answers are typed by `setting` against `answers` (registered untyped).
  const untyped = r as FastifyInstance;
  const query = (req: { query: unknown }) => req.query as z.output<typeof sessionQuery>;
  const levelOf = (req: { params: unknown }) => (req.params as { level: Level }).level;
  const sent = (req: { body: unknown }) => req.body as z.infer<B>;
  const answering = (response: z.ZodType) => ({ ...level, schema: { ...level.schema, response: { 200: response } } });
  const listing: RouteShorthandOptions = {
    config: { auth: ANY_ROLE },
    schema: { tags, querystring: sessionQuery, response: { 200: answers.list } },
  };
  untyped.get(`/api/${path}/`, listing, (req): Promise<unknown> => setting.list(query(req).session_id));
  untyped.put(`/api/${path}/:level/`, answering(answers.put), (req): Promise<unknown> =>
    setting.put(levelOf(req), sent(req), currentUser(req).id),
  );
  untyped.post(`/api/${path}/:level/preview/`, answering(answers.preview), (req): Promise<unknown> =>
    setting.preview(levelOf(req), sent(req)),
  );
}

/** What the results routes call: built once by the composition root (src/composition.ts). */
export type ResultsRoutesDeps = Pick<AppDeps, 'db'> & {
  scope: AccessScope;
  results: ResultsService;
  reportCards: ReportCardService;
  broadsheets: BroadsheetService;
  grading: GradingService;
  assessment: AssessmentService;
  cardGate: CardGate;
  cardPdfs: CardPdfs;
};

/** Results, grading scales, publishing, audit, report cards and broadsheets. */
export function resultsRoutes(app: FastifyInstance, deps: ResultsRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { results, reportCards: cards, broadsheets, grading, assessment } = deps;

  // ---------- results ----------
  r.post(
    '/api/results/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: ['results'], body: resultSaveSchema, response: { 200: resultSaveResponseSchema, 201: resultSaveResponseSchema } },
    },
    async (req, reply) => {
      const out = await results.save(req.body, currentActor(req));
      return reply.status(out.created ? 201 : 200).send(out.single ? out.results[0]! : out.results);
    },
  );
  // A parent names one of their children (decision 035): released results only, as the child sees them.
  r.get(
    '/api/results/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: { tags: ['results'], querystring: resultQuerySchema, response: { 200: z.array(resultSchema) } },
    },
    async (req) => results.list(await deps.scope.actingFor(currentActor(req), req.query.admission_number), req.query),
  );
  r.patch(
    '/api/results/:id/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: ['results'], params: idParams, body: resultPatchSchema, response: { 200: resultSchema } },
    },
    (req) => results.patch(req.params.id, req.body, currentActor(req)),
  );
  r.delete(
    '/api/results/:id/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: ['results'], params: idParams, querystring: deleteQuery, response: { 204: noContent } },
    },
    async (req, reply) => {
      await results.remove(req.params.id, req.query.version, currentActor(req), req.query.reason);
      return (reply as FastifyReply).status(204).send(); // no body (the schema: noContent)
    },
  );

  // ---------- beyond the spec ----------
  r.get(
    '/api/results/students/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: ['results'], querystring: termQuerySchema, response: { 200: z.array(resultStudentSchema) } },
    },
    (req) => results.students(req.query),
  );
  r.get(
    '/api/results/terms/',
    {
      config: { auth: ANY_ROLE },
      schema: {
        tags: ['results'],
        querystring: z.object({ admission_number: admissionNumberField.optional() }),
        response: { 200: z.array(resultTermStatusSchema) },
      },
    },
    (req) => results.terms(currentActor(req), req.query.admission_number),
  );
  r.get(
    '/api/results/audit/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags: ['results'],
        querystring: z.object({
          admission_number: admissionNumberField.optional(),
          student_class: classField.optional(),
          session_id: sessionIdField.optional(),
          term: termField.optional(),
          limit: z.coerce.number().int().min(1).max(5000).optional(),
        }),
        response: { 200: z.array(resultAuditEntrySchema) },
      },
    },
    (req) => results.audit(req.query),
  );

  r.get(
    '/api/results/publications/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags: ['results'],
        querystring: z.object({ session_id: sessionIdField.optional(), term: termField.optional() }),
        response: { 200: z.array(publicationResponseSchema) },
      },
    },
    (req) => results.publications(req.query),
  );
  r.post(
    '/api/results/publications/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['results'], body: publicationSchema, response: { 200: publicationResponseSchema, 201: publicationResponseSchema } },
    },
    async (req, reply) => {
      const out = await results.publish(req.body, currentActor(req));
      return reply.status(out.created ? 201 : 200).send(out.publication);
    },
  );
  r.delete(
    '/api/results/publications/:id/',
    { config: { auth: ADMIN_ONLY }, schema: { tags: ['results'], params: idParams, response: { 204: noContent } } },
    async (req, reply) => {
      await results.unpublish(req.params.id, currentActor(req));
      return (reply as FastifyReply).status(204).send(); // no body (the schema: noContent)
    },
  );

  const gradingAnswers = { list: z.array(gradingScaleResponseSchema), put: gradingScaleSavedSchema, preview: gradingScalePreviewSchema };
  perLevelRoutes(r, 'grading-scales', 'grading', gradingScaleSchema, gradingAnswers, {
    list: (sessionId) => grading.list(sessionId),
    put: (level, body, actorId) => grading.put(level, body.bands, actorId, body.confirm === true),
    preview: (level, body) => grading.preview(level, body.bands),
  });

  // ---------- assessment schemes (components of a subject's score) ----------
  const schemeAnswers = { list: z.array(assessmentSchemeSchema), put: assessmentSchemeSavedSchema, preview: assessmentSchemePreviewSchema };
  perLevelRoutes(r, 'assessment-schemes', 'assessment', assessmentSchemeInputSchema, schemeAnswers, {
    list: (sessionId) => assessment.list(sessionId),
    put: (level, body, actorId) => assessment.put(level, body, actorId, deps.db),
    preview: (level, body) => assessment.preview(level, body, deps.db),
  });

  // ---------- report cards and broadsheets ----------
  r.get(
    '/api/report-card/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: { tags: ['report cards'], querystring: reportCardQuerySchema, response: { 200: reportCardSchema } },
    },
    async (req) => cards.card(await deps.scope.actingFor(currentActor(req), req.query.admission_number), req.query),
  );
  r.get(
    '/api/report-card/pdf/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: {
        tags: ['report cards'],
        querystring: reportCardQuerySchema,
        response: { 200: binaryResponse('application/pdf', 'The report card as a PDF'), 304: notModified },
      },
    },
    // Access, release and the fee gate first; then the stored file when its fingerprint is current (decision 050).
    async (req, reply) => {
      const answer = await deps.cardPdfs.cardPdf(await deps.scope.actingFor(currentActor(req), req.query.admission_number), req.query);
      return sendStoredAttachment(req, reply, 'pdf', { etag: answer.etag, filename: answer.filename, body: answer.pdf });
    },
  );
  // Cards opened regardless of fees (decision 042): the admin, or staff holding the bursar capability.
  const feeReleaser = { auth: STAFF_OR_ADMIN, capability: 'bursar' } as const;
  r.post(
    '/api/report-card/fee-releases/',
    {
      config: feeReleaser,
      schema: { tags: ['report cards'], body: cardFeeReleaseSchema, response: { 201: cardFeeReleaseResponseSchema } },
    },
    async (req, reply) => reply.status(201).send(await deps.cardGate.release(req.body, currentUser(req).id)),
  );
  r.get(
    '/api/report-card/fee-releases/',
    {
      config: feeReleaser,
      schema: { tags: ['report cards'], querystring: cardFeeReleaseQuerySchema, response: { 200: z.array(cardFeeReleaseResponseSchema) } },
    },
    (req) => deps.cardGate.releases(req.query.session_id, req.query.term),
  );
  r.get(
    '/api/students/:admission_number/transcript/pdf/',
    {
      config: { auth: ADMIN_ONLY, heavy: true },
      schema: {
        tags: ['report cards'],
        summary: "A student's transcript: every released card as one PDF",
        params: admissionNumberParams,
        response: { 200: binaryResponse('application/pdf', 'The transcript as a PDF') },
      },
    },
    async (req, reply) => {
      const list = await cards.transcript(currentActor(req), req.params.admission_number);
      const first = list[0]!;
      // The stored card files joined (decision 050); any card drawn waits its turn among the PDF renders.
      const pdf = await deps.cardPdfs.transcriptPdf(
        list,
        `Transcript ${first.student.admission_number} ${first.student.first_name} ${first.student.last_name}`,
      );
      return sendAttachment(reply, 'pdf', `transcript-${first.student.admission_number.replace(/[^A-Za-z0-9-]/g, '-')}.pdf`, pdf);
    },
  );
  r.get(
    '/api/report-cards/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: { tags: ['report cards'], querystring: classTermQuerySchema, response: { 200: z.array(reportCardSchema) } },
    },
    (req) => cards.classCards(currentActor(req), req.query),
  );
  r.get(
    '/api/report-cards/pdf/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: {
        tags: ['report cards'],
        querystring: classTermQuerySchema,
        response: { 200: binaryResponse('application/pdf', "The arm's report cards as one PDF"), 304: notModified },
      },
    },
    async (req, reply) => {
      const answer = await deps.cardPdfs.classPdf(currentActor(req), req.query);
      return sendStoredAttachment(req, reply, 'pdf', { etag: answer.etag, filename: answer.filename, body: answer.pdf });
    },
  );
  // The stored PDFs' size (decision 050): how much of the school's database they take.
  r.get(
    '/api/report-card-pdfs/storage/',
    { config: { auth: ADMIN_ONLY }, schema: { tags: ['report cards'], response: { 200: reportCardPdfStorageSchema } } },
    () => deps.cardPdfs.storage(),
  );
  r.get(
    '/api/broadsheet/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      // The whole school's sheet is streamed (not serialised through the schema): the same shape.
      schema: { tags: ['report cards'], querystring: termQuerySchema, response: { 200: broadsheetSchema } },
    },
    async (req, reply) => {
      const { student_class, ...whole } = req.query;
      if (student_class !== undefined) return broadsheets.broadsheet(req.query);
      // The whole school is streamed class by class: the same JSON, with `subjects` last.
      const sheet = await broadsheets.broadsheetStream(whole);
      // A stream is sent as it is (never through the serializer): typed as the reply of no schema.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(Readable.from(broadsheetJson(sheet)));
    },
  );
  r.get(
    '/api/broadsheet/csv/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: {
        tags: ['report cards'],
        querystring: termQuerySchema,
        response: { 200: binaryResponse('text/csv', 'The broadsheet as CSV') },
      },
    },
    async (req, reply) => {
      const sheet = await broadsheets.broadsheet(req.query);
      const name = `broadsheet-${(req.query.student_class ?? 'all').replace(' ', '')}-${sheet.session.name.replace('/', '-')}-${req.query.term}.csv`;
      return sendAttachment(reply, 'csv', name, await broadsheetCsv(sheet));
    },
  );
}
