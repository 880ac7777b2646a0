import { z } from 'zod';
import { AUTH_MESSAGES } from './auth-constants';
import { ADMISSION_NUMBER_MAX } from './constants';

/**
 * What a person types to say who they are at sign-in. A student may give their email or their
 * admission number (the number printed on their sign-in slip); the spec's login call keeps its
 * `email` field, and a value without "@" is read as an admission number.
 */
export type SignInId = { kind: 'email'; email: string } | { kind: 'admission_number'; key: string };

/**
 * Characters that show nothing: format characters (zero-width space and joiners, the byte-order mark,
 * bidirectional marks, the soft hyphen) and every other default-ignorable code point (variation
 * selectors, the combining grapheme joiner, Hangul fillers, tags). Copied from a message or a PDF
 * they come along unseen, so they never count.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** Spaces, every dash and minus, and the slashes: separators within an admission number, never part of it. */
const SEPARATORS = /[\s\p{Z}\p{Pd}\u2212\u2796\uFE63\uFF0D/\u2044\u2215\u29F8\uFF0F]/gu;

/**
 * The one reading of typed sign-in text: Unicode NFKC (full-width letters and digits, ligatures and
 * compatibility forms become the plain ones), invisible characters removed, outer spaces trimmed.
 */
export function foldSignInText(raw: string): string {
  return raw.normalize('NFKC').replace(INVISIBLE, '').trim();
}

/**
 * The comparison key of an admission number: the folded text without separators, upper case
 * (`stu 0001`, `STU0001`, `ｓｔｕ－０００１` and `STU-0001` are one number; `RMC/2026/0012` is
 * `RMC20260012`). Null when what is left is not letters A-Z and digits, so a look-alike letter of
 * another script (a Cyrillic С in СTU-0001) never names a student: it cannot be a second form of
 * a real number, and so cannot be counted apart from it. Stored numbers are keyed by the same rule
 * in SQL (`ADMISSION_KEY_SQL` on the server), which their pattern (letters, digits, - and /) allows.
 */
export function admissionNumberKey(raw: string): string | null {
  const key = foldSignInText(raw).replace(SEPARATORS, '').toUpperCase();
  return /^[A-Z0-9]+$/.test(key) && key.length <= ADMISSION_NUMBER_MAX ? key : null;
}

/** Reads typed sign-in text: with "@" an email (lower case), else an admission number; null when it is neither. */
export function readSignInId(raw: string): SignInId | null {
  const folded = foldSignInText(raw);
  if (folded.includes('@')) {
    const email = z.email().max(254).safeParse(folded.toLowerCase());
    return email.success ? { kind: 'email', email: email.data } : null;
  }
  const key = admissionNumberKey(folded);
  return key ? { kind: 'admission_number', key } : null;
}

/** The text a sign-in id is counted under when it names no account (an email, or an admission number's key). */
export function signInIdText(id: SignInId): string {
  return id.kind === 'email' ? id.email : id.key;
}

const password = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .max(1024, AUTH_MESSAGES.invalidCredentials);

/**
 * The student sign-in's body: `email` holds an email or an admission number (read by `readSignInId`).
 * Staff and the admin sign in with an email only (`loginRequestSchema`).
 */
export const studentLoginRequestSchema = z.object({
  email: z
    .string({ error: AUTH_MESSAGES.signInIdRequired })
    .max(320, AUTH_MESSAGES.invalidSignInId)
    .transform((raw, ctx): SignInId => {
      if (foldSignInText(raw) === '') {
        ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.signInIdRequired });
        return z.NEVER;
      }
      const id = readSignInId(raw);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.invalidSignInId });
        return z.NEVER;
      }
      return id;
    }),
  password,
});
