import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY, bankListSchema, bankSchema, referenceReviewListSchema, bankInputSchema, EVERY_ACCOUNT } from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { BanksService } from './banks.service';
import { BURSAR } from './bursar-access';

const tags = ['bursary'];

/** The list of banks: everyone signed in reads it (the forms offer it); the admin adds one. */
export function bankRoutes(app: FastifyInstance, { banks: service }: { banks: BanksService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/bursary/banks/',
    { config: { auth: EVERY_ACCOUNT }, schema: { tags, summary: 'The list of banks with their codes', response: { 200: bankListSchema } } },
    () => service.all(),
  );
  r.post(
    '/api/bursary/banks/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Add a bank to the list', body: bankInputSchema, response: { 201: bankSchema } },
    },
    async (request, reply) => reply.status(201).send(await service.add(currentUser(request), request.body)),
  );
  // The payments and reports migration 0020 found recorded twice (kept, never deleted): the bursar reviews them.
  r.get(
    '/api/bursary/reference-reviews/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: 'Payments and reports that share a bank reference with an older one (found by migration 0020)',
        response: { 200: referenceReviewListSchema },
      },
    },
    () => service.reviews(),
  );
}
