import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY } from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { SetupService } from './setup.service';

/** The admin home's first-run checklist. */
export function setupRoutes(app: FastifyInstance, { setup: service }: { setup: SetupService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/setup-checklist/', { config: { auth: ADMIN_ONLY }, schema: { tags: ['settings'] } }, () => service.checklist());
  r.post('/api/setup-checklist/dismiss/', { config: { auth: ADMIN_ONLY }, schema: { tags: ['settings'] } }, async (request) =>
    service.dismiss(currentUser(request).id),
  );
}
