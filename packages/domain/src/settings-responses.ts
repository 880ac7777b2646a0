import { z } from 'zod';
import type { AdmissionPage } from './admission-constants';
import { SETUP_STEP_IDS, type SetupChecklist } from './first-run';
import { COMMENT_KINDS } from './report-card-rules';
import type { ReportSettings } from './report-card-schemas';
import { describes } from './response-check';
import type { SchoolSettings } from './settings-constants';

// Response schemas of the school's settings, the report card's settings, the admission page and the
// first-run checklist.

/** GET and PUT /api/settings/: the school's settings (public). */
export const schoolSettingsResponseSchema = describes<SchoolSettings>()(
  z
    .object({
      school_name: z.string(),
      motto: z.string(),
      address: z.string(),
      phone: z.string(),
      email: z.string(),
      logo: z.string().describe("A small image as a data: URL, or ''"),
      founded_year: z.number(),
      registered_year: z.number(),
      first_graduation_year: z.number(),
      admission_url: z.string(),
      about: z.string(),
      admission_number_format: z.string(),
      time_zone: z.string(),
      result_pins_enabled: z.boolean(),
      result_pin_uses: z.number(),
      results_fee_gate: z.boolean(),
      results_fee_gate_percent: z.number(),
    })
    .meta({ id: 'SchoolSettings' }),
);

const traitSchema = z.object({ id: z.string(), name: z.string() });

/** GET and PUT /api/report-settings/: traits, rating key, comment bank, promotion rule, signature and stamp. */
export const reportSettingsResponseSchema = describes<ReportSettings>()(
  z
    .object({
      traits: z.object({ affective: z.array(traitSchema), psychomotor: z.array(traitSchema) }),
      rating_labels: z.array(z.string()),
      require_comments: z.boolean(),
      promotion: z.object({
        min_average: z.number(),
        trial_average: z.number().nullable(),
        pass_mark: z.number(),
        required_subjects: z.array(z.string()),
      }),
      comment_bank: z.array(z.object({ kind: z.enum(COMMENT_KINDS), min: z.number(), max: z.number(), text: z.string() })),
      signature: z.string().describe("A data: URL, or '' for none"),
      stamp: z.string().describe("A data: URL, or '' for none"),
    })
    .meta({ id: 'ReportSettings' }),
);

/** GET and PUT /api/admission/: the public admission page's sections. */
export const admissionPageResponseSchema = describes<AdmissionPage>()(
  z
    .object({ how_to_apply: z.string(), requirements: z.string(), dates: z.string(), fees: z.string(), contact: z.string() })
    .meta({ id: 'AdmissionPage' }),
);

/** GET /api/setup-checklist/ and its dismissal (admin). */
export const setupChecklistSchema = describes<SetupChecklist>()(
  z
    .object({
      steps: z.array(z.object({ id: z.enum(SETUP_STEP_IDS), done: z.boolean() })),
      complete: z.boolean(),
      dismissed: z.boolean(),
    })
    .meta({ id: 'SetupChecklist' }),
);
