import { describe, expect, it } from 'vitest';
import { CHILD_PAGES, childPath, childQuery } from './parent-child';

describe('a parent page names its child in the address', () => {
  it('adds ?child= to a path, or &child= to a path with its own query, the admission number encoded', () => {
    expect(childPath('/my-statement', 'STU-0001')).toBe('/my-statement?child=STU-0001');
    expect(childPath('/report-card?session_id=3&term=1st', 'STU-0001')).toBe('/report-card?session_id=3&term=1st&child=STU-0001');
    expect(childPath('/PaymentForm', 'A&B')).toBe('/PaymentForm?child=A%26B');
  });

  it("a student screen's call names the child for a parent, and nothing for a student's own", () => {
    expect(childQuery('STU-0001')).toEqual({ admission_number: 'STU-0001' });
    expect(childQuery(null)).toEqual({});
  });

  it('the switcher shows on the home and every student screen a parent opens for a child', () => {
    for (const p of ['/ParentHomePage', '/report-card', '/my-attendance', '/my-statement', '/my-transfers', '/PaymentForm'])
      expect(CHILD_PAGES).toContain(p);
    expect(CHILD_PAGES).not.toContain('/change-password');
  });
});
