import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { schoolSettingsSchema } from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { currentUser } from '../../http/auth';
import { writeAudit } from '../../lib/audit';
import { SettingsRepository } from './settings.repository';

export function settingsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const repo = new SettingsRepository(deps.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/settings/', { config: { auth: 'public' }, schema: { tags: ['settings'] } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-cache');
    return repo.get();
  });

  r.put('/api/settings/', { config: { auth: ['admin'] }, schema: { tags: ['settings'], body: schoolSettingsSchema } }, async (request) => {
    const before = await repo.get();
    await repo.put(request.body);
    await writeAudit(deps.db, {
      actorUserId: currentUser(request).id,
      action: 'update',
      entity: 'settings',
      entityId: 'school',
      before: { ...before, logo: before.logo ? '[image]' : '' },
      after: { ...request.body, logo: request.body.logo ? '[image]' : '' },
    });
    return request.body;
  });
}
