import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_ONLY,
  myCapabilitiesSchema,
  STAFF_OR_ADMIN,
  staffCapabilitiesListSchema,
  staffCapabilitiesResponseSchema,
  staffCapabilitiesSchema,
  staffIdParams,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { CapabilitiesService } from './capabilities.service';

const tags = ['staff capabilities'];

/** The admin grants staff capabilities (the bursar); staff read their own. */
export function capabilitiesRoutes(app: FastifyInstance, { capabilities: service }: { capabilities: CapabilitiesService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/staff-capabilities/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Every staff member and what they hold', response: { 200: staffCapabilitiesListSchema } },
    },
    () => service.list(),
  );

  r.put(
    '/api/staff-capabilities/:staff_id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: "Set a staff member's capabilities",
        params: staffIdParams,
        body: staffCapabilitiesSchema,
        response: { 200: staffCapabilitiesResponseSchema },
      },
    },
    async (request) => service.set(currentUser(request), request.params.staff_id, request.body.capabilities),
  );

  r.get(
    '/api/me/capabilities/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags, summary: 'What the signed-in staff member holds (the admin: all)', response: { 200: myCapabilitiesSchema } },
    },
    async (request) => service.mine(currentUser(request)),
  );
}
