import type { FastifyInstance } from 'fastify';
import { adminDashboardRoutes } from './admin.routes';
import { bursarDashboardRoutes } from './bursar.routes';
import { staffDashboardRoutes } from './staff.routes';
import { studentDashboardRoutes } from './student.routes';

/** What the dashboards' routes take: each role's file names its own service (add `& Parameters<…>[1]` per role). */
type DashboardsDeps = Parameters<typeof adminDashboardRoutes>[1] &
  Parameters<typeof bursarDashboardRoutes>[1] &
  Parameters<typeof staffDashboardRoutes>[1] &
  Parameters<typeof studentDashboardRoutes>[1];

/**
 * Every dashboard's route (issue 36): one endpoint per role's home, GET /api/dashboards/<role>/.
 * Each role's routes file registers its own here (append a line per role).
 */
export function dashboardsRoutes(app: FastifyInstance, deps: DashboardsDeps): void {
  adminDashboardRoutes(app, deps);
  bursarDashboardRoutes(app, deps);
  staffDashboardRoutes(app, deps);
  studentDashboardRoutes(app, deps);
}
