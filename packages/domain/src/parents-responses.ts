import { z } from 'zod';
import {
  PARENT_LINK_SOURCES,
  PARENT_RELATIONSHIPS,
  type ParentConflict,
  type ParentDetail,
  type ParentHomeChild,
  type ParentInvitationResult,
  type ParentLoginData,
  type ParentMeChild,
  type ParentSummary,
} from './parents';
import { describes } from './response-check';

// Response schemas of the parents routes (issue 33) and of a parent's sign-in and /api/me/.

export const parentSummarySchema = describes<ParentSummary>()(
  z
    .object({
      id: z.number(),
      name: z.string(),
      phone: z.string(),
      email: z.string().nullable(),
      children: z.number(),
      invited_at: z.string().nullable(),
      last_sign_in_at: z.string().nullable(),
    })
    .meta({ id: 'ParentSummary' }),
);

/** GET /api/parents/ (admin): one page of parents. */
export const parentListResponseSchema = z
  .object({ count: z.number(), next: z.number().nullable(), results: z.array(parentSummarySchema) })
  .meta({ id: 'ParentList' });

const parentChildLinkSchema = z.object({
  admission_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  arm: z.string(),
  relationship: z.enum(PARENT_RELATIONSHIPS),
  source: z.enum(PARENT_LINK_SOURCES),
});

/** A parent and the children linked: GET /api/parents/:id/, and the answer of a create or a link. */
export const parentDetailSchema = describes<ParentDetail>()(
  parentSummarySchema
    .omit({ children: true })
    .extend({ children: z.array(parentChildLinkSchema) })
    .meta({ id: 'ParentDetail' }),
);

export const parentConflictSchema = describes<ParentConflict>()(
  z
    .object({
      phone: z.string(),
      parent: z.object({ id: z.number(), name: z.string() }).nullable(),
      students: z.array(
        z.object({
          admission_number: z.string(),
          first_name: z.string(),
          last_name: z.string(),
          arm: z.string(),
          relationship: z.enum(PARENT_RELATIONSHIPS),
          name_given: z.string(),
        }),
      ),
    })
    .meta({ id: 'ParentConflict' }),
);

/** GET /api/parents/conflicts/ and the answer of resolving one. */
export const parentConflictListSchema = z.object({ results: z.array(parentConflictSchema) }).meta({ id: 'ParentConflictList' });

const parentInvitationResultSchema = describes<ParentInvitationResult>()(
  z.object({
    invited: z.number(),
    slips: z.array(z.object({ name: z.string(), phone: z.string(), password: z.string(), children: z.array(z.string()) })),
  }),
);

/** POST /api/parents/invitations/: the parents invited, their one-time passwords, and a sentence saying how many. */
export const parentInvitationResponseSchema = parentInvitationResultSchema.extend({ detail: z.string() }).meta({ id: 'ParentInvitations' });

/** POST /api/parents/backfill/: what the backfill made from the students' guardian fields. */
export const parentBackfillResponseSchema = z
  .object({ students: z.number(), parents: z.number(), links: z.number(), conflicts: z.number() })
  .meta({ id: 'ParentBackfill' });

export const parentMeChildSchema = describes<ParentMeChild>()(
  z.object({ admission_number: z.string(), first_name: z.string(), last_name: z.string(), arm: z.string() }).meta({ id: 'ParentMeChild' }),
);

const parentHomeChildSchema = describes<ParentHomeChild>()(
  parentMeChildSchema
    .extend({
      relationship: z.enum(PARENT_RELATIONSHIPS),
      photo_url: z.string().nullable(),
      latest_card: z
        .object({
          session_id: z.number(),
          session: z.string(),
          term: z.string(),
          average: z.number().nullable(),
          position: z.number().nullable(),
          out_of: z.number().nullable(),
        })
        .nullable(),
      attendance: z
        .object({
          session_id: z.number(),
          term: z.string(),
          present: z.number(),
          absent: z.number(),
          late: z.number(),
          school_days: z.number(),
          today: z.enum(['present', 'absent', 'late', 'unmarked', 'no_school']).nullable(),
        })
        .nullable(),
      fees: z
        .object({ session_id: z.number(), term: z.string(), due_kobo: z.number(), paid_kobo: z.number(), outstanding_kobo: z.number() })
        .nullable(),
    })
    .meta({ id: 'ParentHomeChild' }),
);

/** GET /api/parent/children/: a parent's children with the current term at a glance. */
export const parentChildrenResponseSchema = z.object({ children: z.array(parentHomeChildSchema) }).meta({ id: 'ParentChildren' });

/** The `data` of POST /api/parent/login/. */
export const parentLoginDataSchema = describes<ParentLoginData>()(
  z.object({
    access: z.string(),
    refresh: z.string(),
    first_name: z.string(),
    name: z.string(),
    phone: z.string(),
    must_change_password: z.boolean(),
  }),
);
