/**
 * Starting the next session's answers as zod schemas (issue 37 item 12): the preview and the step.
 * The types of rollover.ts are inferred from these (re-exported as types).
 */
import { z } from 'zod';
import { TERM_VALUES } from './constants';

const counted = z.object({ count: z.number() });

export const rolloverTermResponseSchema = z.object({
  term: z.enum(TERM_VALUES),
  starts_on: z.string(),
  ends_on: z.string(),
  next_term_begins: z.string().nullable(),
});
export type RolloverTerm = z.infer<typeof rolloverTermResponseSchema>;

export const rolloverPreviewSchema = z
  .object({
    from_session: z.object({ id: z.number(), name: z.string() }),
    name: z.string(),
    terms: z.array(rolloverTermResponseSchema),
    copies: z.object({
      /** Holidays, breaks and extra school days within the session's terms. */
      calendar_events: counted,
      fee_items: counted,
      assessment_schemes: counted,
      grading_scales: counted,
      /** The school's settings, not a session's: the new session reads them as they are. */
      report_card_settings: z.object({ count: z.number(), school_wide: z.literal(true) }),
      teaching_assignments: counted,
      form_teachers: counted,
      enforcement_and_windows: counted,
    }),
  })
  .meta({ id: 'RolloverPreview' });
export type RolloverPreview = z.infer<typeof rolloverPreviewSchema>;

export const rolloverResultSchema = z
  .object({
    session: z.object({ id: z.number(), name: z.string(), is_current: z.boolean() }),
    copied: z.object({
      calendar_events: z.number(),
      fee_items: z.number(),
      assessment_schemes: z.number(),
      grading_scales: z.number(),
      report_card_settings: z.number(),
      teaching_assignments: z.number(),
      form_teachers: z.number(),
      enforcement_and_windows: z.number(),
    }),
  })
  .meta({ id: 'RolloverResult' });
export type RolloverResult = z.infer<typeof rolloverResultSchema>;
