import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_OR_ADMIN } from '@portal/domain';
import { dashboardTermQuerySchema, staffDashboardSchema } from '@portal/domain/dashboard-staff';
import { currentUser } from '../../http/auth';
import type { StaffDashboardService } from './staff.service';

export interface StaffDashboardRoutesDeps {
  staffDashboard: StaffDashboardService;
}

/** The teacher's dashboard: their own arm-subjects and form arms (an admin without a staff record sees none). */
export function staffDashboardRoutes(app: FastifyInstance, deps: StaffDashboardRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboards/staff/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags: ['dashboards'],
        summary: "A teacher's classes at a glance",
        querystring: dashboardTermQuerySchema,
        response: { 200: staffDashboardSchema },
      },
    },
    async (request) => deps.staffDashboard.get(currentUser(request), request.query),
  );
}
