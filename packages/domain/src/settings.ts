import { z } from 'zod';
import { DEFAULT_ADMISSION_NUMBER_FORMAT, admissionFormatProblem } from './constants';
import { DEFAULT_TIME_ZONE, isValidTimeZone } from './datetime';
import { SETTINGS_MESSAGES, type SchoolSettings as SchoolSettingsShape } from './settings-constants';
import { textField } from './text';
import { FEE_GATE_DEFAULT_PERCENT, FEE_GATE_MESSAGES } from './card-fee-gate';

/** School identity and public-page facts, edited by an admin and used on every page and print. */
export const schoolSettingsSchema = z.object({
  school_name: textField('School name', { required: 'School name is required' }).trim().min(2, 'School name is required').max(120),
  motto: textField('Motto').trim().max(120),
  address: textField('Address', { multiline: true }).trim().max(300),
  phone: textField('Phone').trim().max(40),
  email: z.union([z.literal(''), z.email('Invalid email format')]),
  /** A small image as a data: URL (PNG, JPEG or SVG), or empty. */
  logo: z
    .string()
    .max(300_000, SETTINGS_MESSAGES.logoTooLarge)
    .refine((v) => v === '' || /^data:image\/(png|jpeg|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(v), 'Logo must be a PNG, JPEG or SVG image'),
  founded_year: z.number().int().min(1800).max(2100),
  registered_year: z.number().int().min(1800).max(2100),
  first_graduation_year: z.number().int().min(1800).max(2100),
  admission_url: textField('Admission link').trim().max(300),
  about: textField('About', { multiline: true }).trim().max(2000),
  /** Absent (an older client) means the default. */
  admission_number_format: z
    .string()
    .trim()
    .toUpperCase()
    .max(40, 'The format is too long')
    .superRefine((v, ctx) => {
      const problem = admissionFormatProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default(DEFAULT_ADMISSION_NUMBER_FORMAT),
  time_zone: z
    .string()
    .trim()
    .max(64)
    .refine(isValidTimeZone, 'Unknown time zone: use a name such as Africa/Lagos')
    .default(DEFAULT_TIME_ZONE),
  /** Result-checker PINs (issue 34, decision 043): the public check is open; absent (an older client): off. */
  result_pins_enabled: z.boolean().default(false),
  /** Uses of a new batch's PINs unless the batch says otherwise. */
  result_pin_uses: z.number().int().min(1, 'A PIN allows 1 to 50 uses').max(50, 'A PIN allows 1 to 50 uses').default(5),
  /** Results gated by fees (decision 042): off by default; absent (an older client) means the default. */
  results_fee_gate: z.boolean({ error: 'Fee gate must be on or off' }).default(false),
  results_fee_gate_percent: z
    .number({ error: FEE_GATE_MESSAGES.percentRange })
    .int(FEE_GATE_MESSAGES.percentRange)
    .min(1, FEE_GATE_MESSAGES.percentRange)
    .max(100, FEE_GATE_MESSAGES.percentRange)
    .default(FEE_GATE_DEFAULT_PERCENT),
});
export type { SchoolSettings } from './settings-constants';
export * from './settings-constants';

// Keep the schema and the interface in step.
type _Check = z.infer<typeof schoolSettingsSchema> extends SchoolSettingsShape ? true : never;
export const _settingsSchemaMatches: _Check = true;
