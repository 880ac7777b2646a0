import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY, setupChecklistSchema } from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { SetupService } from './setup.service';

/** The admin home's first-run checklist. */
export function setupRoutes(app: FastifyInstance, { setup: service }: { setup: SetupService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['settings'], response: { 200: setupChecklistSchema } };
  r.get('/api/setup-checklist/', { config: { auth: ADMIN_ONLY }, schema }, () => service.checklist());
  r.post('/api/setup-checklist/dismiss/', { config: { auth: ADMIN_ONLY }, schema }, async (request) =>
    service.dismiss(currentUser(request).id),
  );
}
