import { z } from 'zod';
import { AUTH_MESSAGES, PASSWORD_MIN } from './auth-constants';

/**
 * What the change-password form checks before it sends (docs/decisions/034): the current password
 * typed, the new one long enough. The rest of `passwordChangeSchema` (at most 128 characters, not
 * spaces only, not a common password, not the own email or the school's name, not the current one)
 * is the server's answer, shown under the field from its 400: this module does not import `./auth`,
 * so the common-passwords list stays out of the web's download.
 */
export const passwordChangeFormSchema = z.object({
  old_password: z.string().min(1, AUTH_MESSAGES.passwordRequired),
  new_password: z.string().min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort),
});
