import { describe, expect, it } from 'vitest';
import type { AdminDashboard } from '@portal/domain';
import { describeEachDatabase, json, requestsOn, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';

describeEachDatabase('admin dashboard', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => {
    ({ ctx, admin, staff } = s);
  });
  const { get } = requestsOn(() => ctx);

  describe('smoke', () => {
    it('answers the admin, refuses staff', async () => {
      const res = await get(admin, '/api/dashboards/admin/');
      expect(res.statusCode).toBe(200);
      const d = json<AdminDashboard>(res);
      expect(d.accounts.blocked).toBe(0);
      expect((await get(staff, '/api/dashboards/admin/')).statusCode).toBe(403);
    });
  });
});
