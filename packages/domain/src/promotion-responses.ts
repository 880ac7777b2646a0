/**
 * End-of-session promotion's answers as zod schemas (issue 37 item 12): the preview, a run and a
 * move. The types of promotion.ts are inferred from these (re-exported as types).
 */
import { z } from 'zod';

const session = z.object({ id: z.number(), name: z.string() });

export const promotionMappingEntrySchema = z.object({ from_arm: z.string(), to_arm: z.string().nullable() });

export const promotionPreviewStudentSchema = z.object({
  student_id: z.number(),
  admission_number: z.string(),
  full_name: z.string(),
  arm: z.string(),
  annual_average: z.number().nullable(),
  decision: z.enum(['promoted', 'trial', 'repeat', 'graduated']),
  source: z.enum(['rule', 'override', 'no_card']),
  target_arm: z.string().nullable(),
  stream_id: z.number().nullable(),
});
export type PromotionPreviewStudent = z.infer<typeof promotionPreviewStudentSchema>;

export const promotionPreviewSchema = z
  .object({
    from_session: session,
    to_session: session,
    mapping: z.array(promotionMappingEntrySchema),
    students: z.array(promotionPreviewStudentSchema),
    counts: z.array(z.object({ target_arm: z.string(), count: z.number() })),
    totals: z.object({
      promoted: z.number(),
      trial: z.number(),
      repeat: z.number(),
      graduated: z.number(),
      left_out_withdrawn: z.number(),
    }),
  })
  .meta({ id: 'PromotionPreview' });
export type PromotionPreview = z.infer<typeof promotionPreviewSchema>;

export const promotionRunSummarySchema = z.object({
  promoted: z.number(),
  trial: z.number(),
  repeat: z.number(),
  graduated: z.number(),
  left_out: z.number(),
});
export type PromotionRunSummary = z.infer<typeof promotionRunSummarySchema>;

export const promotionRunResponseSchema = z
  .object({
    id: z.number(),
    status: z.enum(['running', 'done', 'failed', 'undone']),
    done: z.number(),
    total: z.number(),
    summary: promotionRunSummarySchema,
    arm: z.string().nullable(),
    from_session: session,
    to_session: session,
    created_at: z.string(),
    created_by: z.string().nullable(),
    undoable: z.boolean(),
    undo_blocked_reason: z.string().optional(),
  })
  .meta({ id: 'PromotionRun' });
export type PromotionRun = z.infer<typeof promotionRunResponseSchema>;

/** POST /api/promotion/runs/ (202): the run started in the background. */
export const promotionRunStartedSchema = z.object({ id: z.number() }).meta({ id: 'PromotionRunStarted' });

export const promotionMoveResultSchema = z
  .object({
    admission_number: z.string(),
    full_name: z.string(),
    from_arm: z.string(),
    to_arm: z.string(),
    stream_id: z.number().nullable(),
    detail: z.string(),
  })
  .meta({ id: 'PromotionMoveResult' });
export type PromotionMoveResult = z.infer<typeof promotionMoveResultSchema>;
