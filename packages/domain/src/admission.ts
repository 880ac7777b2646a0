import { z } from 'zod';
import { textField } from './text';
import { ADMISSION_TEXT_MAX, type AdmissionPage } from './admission-constants';

export * from './admission-constants';

const section = (label: string) =>
  textField(label, { multiline: true }).trim().max(ADMISSION_TEXT_MAX, `${label} must be at most ${ADMISSION_TEXT_MAX} characters`);

/**
 * The portal's own admission page: plain text per section, line breaks kept. Shown as
 * text (never as HTML), so nothing an admin types can become markup or script on the public page.
 */
export const admissionPageSchema = z.object({
  how_to_apply: section('How to apply'),
  requirements: section('Requirements'),
  dates: section('Dates'),
  fees: section('Fees'),
  contact: section('Contact'),
});

// Keep the schema and the interface in step.
type _Check = z.infer<typeof admissionPageSchema> extends AdmissionPage ? true : never;
export const _admissionSchemaMatches: _Check = true;
