import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY } from '@portal/domain';
import { adminDashboardSchema, dashboardQuerySchema } from '@portal/domain/dashboard-admin';
import { currentUser } from '../../http/auth';
import type { AdminDashboardService } from './admin.service';

/** The admin / principal home's figures (issue 36, item 1): one read, admin only. */
export function adminDashboardRoutes(app: FastifyInstance, { adminDashboard }: { adminDashboard: AdminDashboardService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboards/admin/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags: ['dashboards'],
        summary: 'The term at a glance for the admin / principal',
        querystring: dashboardQuerySchema,
        response: { 200: adminDashboardSchema },
      },
    },
    (req) => adminDashboard.dashboard(currentUser(req), req.query),
  );
}
