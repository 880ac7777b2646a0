import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY, STAFF_OR_ADMIN, staffCapabilitiesSchema, staffIdParams } from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { currentUser } from '../../http/auth';
import { capabilitiesService } from './capabilities.service';

const tags = ['staff capabilities'];

/** The admin grants staff capabilities (the bursar); staff read their own. */
export function capabilitiesRoutes(app: FastifyInstance, deps: AppDeps): void {
  const service = capabilitiesService(deps.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/staff-capabilities/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Every staff member and what they hold' } },
    () => service.list(),
  );

  r.put(
    '/api/staff-capabilities/:staff_id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: "Set a staff member's capabilities", params: staffIdParams, body: staffCapabilitiesSchema },
    },
    async (request) => service.set(currentUser(request), request.params.staff_id, request.body.capabilities),
  );

  r.get(
    '/api/me/capabilities/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, summary: 'What the signed-in staff member holds (the admin: all)' } },
    async (request) => service.mine(currentUser(request)),
  );
}
