import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '@portal/domain/report-card-rules';
import { type CommentSheetRow } from '@portal/domain/report-cards';
import { commentCells, commentProblems, commentSaveRow } from './comment-model';

const row: CommentSheetRow = {
  admission_number: 'STU-0001',
  name: 'Ada Obi',
  average: 61.5,
  position: 2,
  form_comment: 'Good',
  principal_comment: '',
  suggested_form: 'A very good result.',
  suggested_principal: 'Good performance.',
  days_present: 50,
  days_absent: null,
  register: null,
  unmarked: null,
  promotion: null,
  version: 3,
};

describe('comment rows', () => {
  it('sends only the changed fields the caller may write', () => {
    const base = commentCells(row);
    const cells = { ...base, form_comment: ' Very good ', principal_comment: 'Well done', days_absent: '4' };
    expect(commentSaveRow('STU-0001', { cells, base, version: 3 }, { may_edit_form: true, may_edit_principal: false })).toEqual({
      admission_number: 'STU-0001',
      version: 3,
      form_comment: 'Very good',
      days_absent: 4,
    });
    expect(commentSaveRow('STU-0001', { cells, base, version: 3 }, { may_edit_form: false, may_edit_principal: true })).toEqual({
      admission_number: 'STU-0001',
      version: 3,
      principal_comment: 'Well done',
    });
  });

  it('sends an override with its reason, and clearing it clears the reason', () => {
    const base = commentCells({ ...row, promotion: { computed: 'repeat', override: null, reason: '', annual_average: 38 } });
    const access = { may_edit_form: false, may_edit_principal: true };
    expect(
      commentSaveRow('S', { cells: { ...base, promotion_override: 'trial', override_reason: 'Ill' }, base, version: 1 }, access),
    ).toMatchObject({
      promotion_override: 'trial',
      override_reason: 'Ill',
    });
    const set = { ...base, promotion_override: 'trial', override_reason: 'Ill' };
    expect(commentSaveRow('S', { cells: { ...set, promotion_override: '' }, base: set, version: 2 }, access)).toMatchObject({
      promotion_override: null,
      override_reason: '',
    });
  });

  it('finds bad days, days over the times opened and an override without a reason', () => {
    const cells = commentCells(row);
    expect(commentProblems(cells, 60)).toEqual({});
    expect(commentProblems({ ...cells, days_present: 'x' }, 60)).toEqual({ days_present: REPORT_MESSAGES.attendanceRange });
    expect(commentProblems({ ...cells, days_absent: '20' }, 60)).toEqual({ days_absent: REPORT_MESSAGES.attendanceOverOpened(60) });
    expect(commentProblems({ ...cells, promotion_override: 'promoted' }, null)).toEqual({
      override_reason: REPORT_MESSAGES.overrideReasonRequired,
    });
  });
});
