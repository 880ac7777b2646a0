/**
 * Who may read and change an arm's report card sheets (ratings, comments, attendance, promotion
 * overrides), shared so the server's refusals and the web client's `may_edit` flags never disagree.
 */
import type { Role } from './constants';
import { CARD_CODES, CARD_STATUS_LABELS, REPORT_MESSAGES, type CardStatus } from './report-card-rules';
import { SESSION_CLOSED_CODE, TEACHING_MESSAGES } from './teaching';

export interface SheetRights {
  /** The form teacher of the arm (any status) and the admin. */
  may_view: boolean;
  /** Ratings, form comments, attendance: the form teacher while the cards are a draft; the admin always. */
  may_edit_form: boolean;
  /** Principal comments and promotion overrides: the admin (the principal) only. */
  may_edit_principal: boolean;
}

/** `currentSession` false: a past session's sheets are read-only to the form teacher. */
export function sheetRights(role: Role, isFormTeacher: boolean, status: CardStatus, currentSession = true): SheetRights {
  if (role === 'admin') return { may_view: true, may_edit_form: true, may_edit_principal: true };
  const teacher = role === 'staff' && isFormTeacher;
  return { may_view: teacher, may_edit_form: teacher && currentSession && status === 'draft', may_edit_principal: false };
}

/** Why a write is refused: 403 (not the form teacher, not the principal) or 409 (the cards are locked). */
export interface SheetRefusal {
  status: 403 | 409;
  detail: string;
  code?: string;
}

/**
 * The refusal of a write of `part` of an arm's sheet, or null when `sheetRights` allows it: anyone
 * but the form teacher and the admin first, then the principal's part, then a session that is not
 * the current one (closed to teachers), then the lock.
 */
export function sheetWriteRefusal(
  role: Role,
  isFormTeacher: boolean,
  status: CardStatus,
  arm: string,
  part: 'form' | 'principal',
  currentSession = true,
): SheetRefusal | null {
  const rights = sheetRights(role, isFormTeacher, status, currentSession);
  if (!rights.may_view) return { status: 403, detail: REPORT_MESSAGES.formTeacherOnly(arm) };
  if (part === 'principal') return rights.may_edit_principal ? null : { status: 403, detail: REPORT_MESSAGES.principalOnly };
  if (role !== 'admin' && !currentSession) return { status: 403, detail: TEACHING_MESSAGES.sessionClosed, code: SESSION_CLOSED_CODE };
  if (rights.may_edit_form) return null;
  return { status: 409, detail: REPORT_MESSAGES.lockedSubmitted(arm, CARD_STATUS_LABELS[status]), code: CARD_CODES.locked };
}
