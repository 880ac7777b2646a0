import { z } from 'zod';
import { ADMISSION_NUMBER_MAX, ADMISSION_NUMBER_PATTERN } from './constants';

/**
 * The one rule of an admission number typed on any screen: trimmed, upper case, 1 to
 * ADMISSION_NUMBER_MAX characters of letters, digits, hyphens and slashes, starting with a letter or
 * digit (STU-0001, or a school's own format such as RMC/2026/0012). Each screen keeps its own
 * messages (the results form's are the spec's), so the schema is made from them.
 */
export function admissionNumberWith(messages: { required: string; invalid: string }) {
  return (
    z
      .string({ error: messages.required })
      .trim()
      .toUpperCase()
      .min(1, messages.required)
      .max(ADMISSION_NUMBER_MAX, messages.invalid)
      // An empty value gets only the "required" message.
      .refine((v) => v === '' || ADMISSION_NUMBER_PATTERN.test(v), messages.invalid)
  );
}
