import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  blastBodySchema,
  blastCreatedSchema,
  blastEstimateSchema,
  blastPageSchema,
  blastViewSchema,
  idParams,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import type { NoticeBlastsService } from './blasts.service';

const PAGE_MESSAGE = 'The page must be a whole number from 1.';
const pageQuery = z.object({
  page: z.coerce.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(1, PAGE_MESSAGE).max(100_000, PAGE_MESSAGE).optional(),
});

/** The admin's custom notices to an audience: estimate, send, progress, pause, resume, cancel (decision record 037). */
export function noticeBlastsRoutes(app: FastifyInstance, { noticeBlasts: service }: { noticeBlasts: NoticeBlastsService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notices'];
  const auth = { auth: ADMIN_ONLY };

  r.post(
    '/api/notice-blasts/estimate/',
    { config: auth, schema: { tags, body: blastBodySchema, response: { 200: blastEstimateSchema } } },
    (req) => service.estimate(req.body),
  );
  r.post(
    '/api/notice-blasts/',
    { config: auth, schema: { tags, body: blastBodySchema, response: { 201: blastCreatedSchema } } },
    async (req, reply) => reply.status(201).send(await service.create(currentActor(req), req.body)),
  );
  r.get('/api/notice-blasts/', { config: auth, schema: { tags, querystring: pageQuery, response: { 200: blastPageSchema } } }, (req) =>
    service.list(req.query.page ?? 1),
  );
  r.get('/api/notice-blasts/:id/', { config: auth, schema: { tags, params: idParams, response: { 200: blastViewSchema } } }, (req) =>
    service.one(req.params.id),
  );
  r.post('/api/notice-blasts/:id/pause/', { config: auth, schema: { tags, params: idParams, response: { 200: blastViewSchema } } }, (req) =>
    service.pause(currentActor(req), req.params.id),
  );
  r.post(
    '/api/notice-blasts/:id/resume/',
    { config: auth, schema: { tags, params: idParams, response: { 200: blastViewSchema } } },
    (req) => service.resume(currentActor(req), req.params.id),
  );
  r.post(
    '/api/notice-blasts/:id/cancel/',
    { config: auth, schema: { tags, params: idParams, response: { 200: blastViewSchema } } },
    (req) => service.cancel(currentActor(req), req.params.id),
  );
}
