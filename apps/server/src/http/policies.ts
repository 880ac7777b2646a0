import { AUTH_MESSAGES, type Role } from '@portal/domain';
import { forbidden, type HttpError } from './errors';

/**
 * Object-level rules shared by every module. A student only ever reaches their own records
 * (results, profile, payments, receipts); staff and admin reach every record their route allows.
 * Routes say which roles may call them (`config.auth`); services apply these on the record itself.
 */

interface Actor {
  id: number;
  role: Role;
}

/** True when the actor is a student, whose reach is limited to their own records. */
export function isStudent(actor: Actor): boolean {
  return actor.role === 'student';
}

/** The refusal for a student reaching another student's record: one message everywhere. */
export function notOwnRecord(): HttpError {
  return forbidden(AUTH_MESSAGES.ownRecordOnly);
}

/**
 * Refuses a student whose request names a record that is not theirs. `isOwn` says whether the
 * record belongs to the actor; staff and admin always pass.
 */
export function assertOwnRecord(actor: Actor, isOwn: boolean): void {
  if (isStudent(actor) && !isOwn) throw notOwnRecord();
}
