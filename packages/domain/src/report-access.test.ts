import { describe, expect, it } from 'vitest';
import { sheetRights, sheetWriteRefusal } from './report-access';
import { SESSION_CLOSED_CODE, TEACHING_MESSAGES } from './teaching';
import { CARD_CODES, CARD_STATUSES, REPORT_MESSAGES } from './report-card-rules';

describe('who may change an arm’s report card sheets', () => {
  it('the admin always; the form teacher the form part while a draft; other staff and students nothing', () => {
    for (const status of CARD_STATUSES) {
      expect(sheetRights('admin', false, status)).toEqual({ may_view: true, may_edit_form: true, may_edit_principal: true });
      expect(sheetRights('staff', true, status)).toEqual({ may_view: true, may_edit_form: status === 'draft', may_edit_principal: false });
      expect(sheetRights('staff', false, status)).toEqual({ may_view: false, may_edit_form: false, may_edit_principal: false });
      expect(sheetRights('student', true, status).may_view).toBe(false);
    }
  });

  it('refuses with 403 (not the form teacher, not the principal) before 409 (locked)', () => {
    expect(sheetWriteRefusal('staff', false, 'submitted', 'JSS 1A', 'form')).toEqual({
      status: 403,
      detail: REPORT_MESSAGES.formTeacherOnly('JSS 1A'),
    });
    expect(sheetWriteRefusal('staff', true, 'draft', 'JSS 1A', 'principal')).toEqual({
      status: 403,
      detail: REPORT_MESSAGES.principalOnly,
    });
    expect(sheetWriteRefusal('staff', true, 'approved', 'JSS 1A', 'form')).toEqual({
      status: 409,
      detail: REPORT_MESSAGES.lockedSubmitted('JSS 1A', 'Approved'),
      code: CARD_CODES.locked,
    });
    expect(sheetWriteRefusal('staff', true, 'draft', 'JSS 1A', 'form')).toBeNull();
    expect(sheetWriteRefusal('admin', false, 'released', 'JSS 1A', 'principal')).toBeNull();
  });

  it('a session that is not the current one is read-only to the form teacher, not to the admin (30.8)', () => {
    expect(sheetRights('staff', true, 'draft', false)).toEqual({ may_view: true, may_edit_form: false, may_edit_principal: false });
    expect(sheetWriteRefusal('staff', true, 'draft', 'JSS 1A', 'form', false)).toEqual({
      status: 403,
      detail: TEACHING_MESSAGES.sessionClosed,
      code: SESSION_CLOSED_CODE,
    });
    expect(sheetWriteRefusal('admin', false, 'draft', 'JSS 1A', 'form', false)).toBeNull();
  });
});
