/** Zod-free sign-in constants, importable by the web shell without pulling in zod. */

/** Messages of the sign-in flow and of the auth rules added beyond the spec. */
export const AUTH_MESSAGES = {
  loginFailedFallback: 'Login failed. Please try again.',
  invalidCredentials: 'Invalid email or password.',
  loginSuccess: 'Login successful.',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email format',
  passwordRequired: 'Password is required',
  tooManyAttempts: 'Too many sign-in attempts. Please wait a minute and try again.',
  tooManyRequests: 'Too many requests. Please try again later.',
  notAuthenticated: 'Authentication credentials were not provided.',
  invalidToken: 'Your session has expired or is invalid. Please sign in again.',
  forbidden: 'You do not have permission to perform this action.',
  /** A student reaching another student's record (results, profile, payments): one message everywhere. */
  ownRecordOnly: 'You can only view or act on your own records.',
  passwordChangeRequired: 'You must change your password before continuing.',
  refreshInvalid: 'Your session has expired. Please sign in again.',
  loggedOut: 'Logged out.',
  passwordChanged: 'Password changed successfully.',
  oldPasswordWrong: 'Current password is incorrect.',
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordTooLong: 'Password must be at most 128 characters.',
  passwordTooCommon: 'This password is too common. Choose a less predictable one.',
  passwordSameAsOld: 'The new password must be different from the current one.',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordOnlySpaces: 'Password cannot be made of spaces only.',
  passwordContainsEmail: 'Password must not contain your email address.',
  passwordContainsSchoolName: "Password must not contain the school's name.",
  passwordChangeTooManyFailures: 'Too many wrong current passwords. You have been signed out; please sign in again.',
  signInBlockCleared: 'Sign-in block cleared.',
  signInBlockClearFailed: 'Failed to clear the block. Please try again.',
  signInBlocksLoadFailed: 'Failed to load sign-in blocks.',
  noSignInBlocks: 'No account is blocked from signing in.',
  signInBlocksHint:
    'After 5 wrong passwords an account cannot sign in from that address for a minute. After 10 wrong passwords from browsers it was never signed in on, only its own browsers may sign in to it for 15 minutes.',
  blockedUntrustedClients: 'From every browser not signed in to it before',
  blockedDevice: 'On one of its own browsers',
  signInIdRequired: 'Email or admission number is required',
  invalidSignInId: 'Enter your email or your admission number',
  /** The sign-in limits cannot be checked (their shared store, Redis, is unreachable): nobody signs in unchecked. */
  signInUnavailable: 'Sign-in is unavailable for a few minutes. Please try again shortly.',
  studentSignInHint: 'Sign in with your admission number or school email, and your password.',
  signInHint: 'Sign in with your school email and password.',
  /** On a new student's printed sign-in slip. */
  slipStudentSignIn: 'Sign in with your admission number (or your email) and this one-time password.',
  /** The slip of a pupil registered without an email. */
  slipStudentSignInNoEmail: 'Sign in with your admission number and this one-time password.',
  authenticating: 'Authenticating...',
  loggingIn: 'Logging in...',
} as const;

/** Local storage keys. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  adminInfo: 'adminInfo',
  staffInfo: 'staffInfo',
  studentInfo: 'studentInfo',
  paymentDraft: 'paymentFormDraft',
  lastPaymentReference: 'lastPaymentReference',
} as const;

/**
 * The page-view cookie: whose page the server renders when the browser asks for a document
 * (docs/decisions/013). Set and cleared by the server with the tokens; the app deletes it itself
 * whenever it ends a session, so signing out works without the network.
 */
export const VIEW_COOKIE = 'portal_view';

/** Machine-readable code sent with 403 when the password must be changed first. */
export const PASSWORD_CHANGE_REQUIRED_CODE = 'password_change_required';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const ROLE_NAMES: Record<string, string> = { admin: 'administrators', staff: 'staff', student: 'students' };
/** Shown on the page a user is sent to when their role may not open the page they asked for. */
export function pageRefusedMessage(path: string, allowed: readonly string[]): string {
  const who = allowed.map((r) => ROLE_NAMES[r] ?? r);
  const list = who.length > 1 ? `${who.slice(0, -1).join(', ')} and ${who[who.length - 1]}` : (who[0] ?? 'other accounts');
  return `You cannot open ${path}: that page is only for ${list}. You have been brought to your home page.`;
}
