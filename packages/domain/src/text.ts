import { z } from 'zod';

/**
 * The one check every free-text field goes through: names, addresses, remarks,
 * search strings, path parameters. Refused, never silently changed:
 * - C0 and C1 control characters, NUL included (PostgreSQL refuses NUL in text: it was a 500), and
 *   DEL; a multi-line field (an address) may hold tabs and line breaks;
 * - bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: "gnp.exe"
 *   spoofing), and in a single-line field the Unicode line and paragraph separators;
 * - lone UTF-16 surrogates (not text: a driver would store U+FFFD instead) and the noncharacters
 *   U+FFFE/U+FFFF;
 * - a value made only of invisible characters (zero-width spaces, joiners, word joiner, soft hyphen,
 *   Hangul fillers...): for a required field it counts as empty. Inside visible text they stay
 *   (joiners are part of several scripts and emoji).
 */

export const TEXT_MESSAGES = {
  notAllowed: (label: string) => `${label} must not contain control characters or text-direction overrides`,
  invisibleOnly: (label: string) => `${label} must contain visible characters`,
  /** The server's guard for a NUL byte anywhere in a URL or a JSON body (outside any field schema). */
  nulInRequest: 'The request contains a null character, which is not allowed.',
} as const;

// These patterns are about control and invisible characters: matching them is their purpose.
/* eslint-disable no-control-regex, no-misleading-character-class */
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const BIDI_AND_NONCHARACTERS = /[\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Whitespace and the characters that render as nothing. */
const INVISIBLE =
  /^(?:\s|[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2060-\u2064\u206A-\u206F\u2800\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF])*$/;
/* eslint-enable no-control-regex, no-misleading-character-class */

export interface TextOptions {
  /** Tabs and line breaks allowed (addresses, "about" texts). */
  multiline?: boolean;
  /** The required field's message: a value made only of invisible characters gets it. */
  required?: string;
}

/** Why `value` is refused, or null. Used by {@link textField}, and by anything that checks text outside zod. */
export function textProblem(value: string, opts: TextOptions & { label: string }): string | null {
  const control = opts.multiline ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE;
  if (control.test(value) || BIDI_AND_NONCHARACTERS.test(value) || LONE_SURROGATE.test(value)) return TEXT_MESSAGES.notAllowed(opts.label);
  // Blank (spaces only) is the field's own business (trim + min); invisible-only is ours.
  if (value.trim() !== '' && INVISIBLE.test(value)) return opts.required ?? TEXT_MESSAGES.invisibleOnly(opts.label);
  return null;
}

/**
 * A string schema with the shared text checks, named for its field's messages. Chain as usual:
 * `textField('First name', { required: M.firstNameRequired }).trim().min(1, ...).max(...)`.
 * `error` is the message for a missing or non-string value (zod's `error` parameter).
 */
export function textField(label: string, opts: TextOptions & { error?: string } = {}) {
  return z.string(opts.error ? { error: opts.error } : undefined).superRefine((value, ctx) => {
    const problem = textProblem(value, { ...opts, label });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/**
 * A required text field: trimmed, and `message` for an empty, blank or invisible-only value and for
 * an absent or non-string one. Chain its maximum: `requiredText('Reason', M.reasonRequired).max(300)`.
 */
export function requiredText(label: string, message: string, opts: Pick<TextOptions, 'multiline'> = {}) {
  return textField(label, { ...opts, required: message, error: message })
    .trim()
    .min(1, message);
}
