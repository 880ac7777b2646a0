import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { studentDashboardQuerySchema, studentDashboardSchema } from '@portal/domain/dashboard-student';
import { currentUser } from '../../http/auth';
import type { StudentDashboardService } from './student.service';

/** What the student dashboard's route calls (built once by the composition root). */
export interface StudentDashboardRoutesDeps {
  studentDashboard: StudentDashboardService;
}

/**
 * GET /api/dashboards/student/ (issue 36 item 4): a student's own; `?student=<admission number>` a
 * parent's linked child or, for the admin, any student. Staff have their own dashboard.
 */
export function studentDashboardRoutes(app: FastifyInstance, deps: StudentDashboardRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboards/student/',
    {
      config: { auth: ['student', 'parent', 'admin'] },
      schema: {
        tags: ['dashboards'],
        summary: 'A student’s term at a glance (own, a linked child, or any for the admin)',
        querystring: studentDashboardQuerySchema,
        response: { 200: studentDashboardSchema },
      },
    },
    async (request) => deps.studentDashboard.dashboard(currentUser(request), request.query),
  );
}
