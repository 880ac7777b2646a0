import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  discountQuerySchema,
  discountListSchema,
  discountResponseSchema,
  discountRevokeSchema,
  discountSchema,
  idParams,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import { BURSAR } from './bursar-access';
import type { DiscountsService } from './discounts.service';

const tags = ['bursary'];

/** Discounts and scholarships: the bursar gives and revokes them. */
export function discountRoutes(app: FastifyInstance, { discounts: service }: { discounts: DiscountsService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/bursary/discounts/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: "A student's (or the session's) discounts and scholarships",
        querystring: discountQuerySchema,
        response: { 200: discountListSchema },
      },
    },
    async (request) => service.list(request.query),
  );

  r.post(
    '/api/bursary/discounts/',
    {
      config: { ...BURSAR, idempotent: true },
      schema: { tags, summary: 'Give a discount or scholarship', body: discountSchema, response: { 201: discountResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await service.give(currentUser(request), request.body)),
  );

  r.post(
    '/api/bursary/discounts/:id/revoke/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: 'Revoke a discount (it stays in the history)',
        params: idParams,
        body: discountRevokeSchema,
        response: { 200: discountResponseSchema },
      },
    },
    async (request) => service.revoke(currentUser(request), request.params.id, request.body.reason),
  );
}
