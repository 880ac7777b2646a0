import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bursarDashboardSchema, dashboardTermQuerySchema } from '@portal/domain/dashboard-staff';
import { BURSAR } from '../payments/fee-reports.service';
import type { BursarDashboardService } from './bursar.service';

export interface BursarDashboardRoutesDeps {
  bursarDashboard: BursarDashboardService;
}

/** The bursar's dashboard: staff holding the bursar capability, and the admin (issue 36.2). */
export function bursarDashboardRoutes(app: FastifyInstance, deps: BursarDashboardRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboards/bursar/',
    {
      // Reads every active student's dues: queued and limited per user like the bursar's reports.
      config: { ...BURSAR, heavy: true },
      schema: {
        tags: ['dashboards'],
        summary: "The bursar's term at a glance",
        querystring: dashboardTermQuerySchema,
        response: { 200: bursarDashboardSchema },
      },
    },
    async (request) => deps.bursarDashboard.get(request.query),
  );
}
