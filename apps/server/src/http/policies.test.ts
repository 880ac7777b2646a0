import { expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/domain';
import { withTestContext, describeEachDatabase, signInStudent, type TestContext } from '../../test/helpers';

describeEachDatabase('one own-record rule: a student reaching another student gets one message everywhere', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  it('profile, results and payments refuse another student with the same 403', async () => {
    const me = await signInStudent(ctx, { firstName: 'Own', lastName: 'Policy' });
    const other = await signInStudent(ctx, { firstName: 'Other', lastName: 'Policy' });
    for (const url of [
      `/api/students/${other.admissionNumber}/`,
      `/api/results/?admission_number=${other.admissionNumber}`,
      `/api/payments/history/?admission_number=${other.admissionNumber}`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: me.auth });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({ detail: AUTH_MESSAGES.ownRecordOnly });
    }
  });
});
