import { z } from 'zod';
import { ROLES } from './constants';
import type { AdminLoginData, Me, SignInBlock, StaffLoginData, StudentLoginData, TokenPair } from './auth';
import type { ParentMe } from './parents';
import { parentLoginDataSchema, parentMeChildSchema } from './parents-responses';
import { describes } from './response-check';

// Response schemas of sign-in, tokens, passwords, sign-in blocks and /api/me/.

/** POST /api/token/refresh/: a new access token and the rotated refresh token. */
export const tokenPairSchema = describes<TokenPair>()(z.object({ access: z.string(), refresh: z.string() }).meta({ id: 'TokenPair' }));

const signedIn = { first_name: z.string(), must_change_password: z.boolean() };
const adminLoginDataSchema = describes<AdminLoginData>()(tokenPairSchema.extend({ ...signedIn, username: z.string() }));
const staffLoginDataSchema = describes<StaffLoginData>()(tokenPairSchema.extend({ ...signedIn, staff_id: z.string() }));
const studentLoginDataSchema = describes<StudentLoginData>()(tokenPairSchema.extend({ ...signedIn, admission_number: z.string() }));

/** The sign-in envelope of a success (a refusal is the same envelope with `status: "error"` and `data: null`). */
function loginEnvelope<D extends z.ZodType>(data: D, id: string) {
  return z
    .object({
      status: z.literal('success'),
      data,
      message: z.string(),
      errors: z.object({ non_field_errors: z.array(z.string()) }),
    })
    .meta({ id });
}

/** POST /api/{role}/login/: each role's signed-in answer. */
export const loginResponseSchemas = {
  admin: loginEnvelope(adminLoginDataSchema, 'AdminLoginResponse'),
  staff: loginEnvelope(staffLoginDataSchema, 'StaffLoginResponse'),
  student: loginEnvelope(studentLoginDataSchema, 'StudentLoginResponse'),
  parent: loginEnvelope(parentLoginDataSchema, 'ParentLoginResponse'),
} as const;

/** POST /api/password/change/: the sentence and a fresh pair for this session (every other one ended). */
export const passwordChangedSchema = tokenPairSchema.extend({ detail: z.string() }).meta({ id: 'PasswordChanged' });

export const signInBlockSchema = describes<SignInBlock>()(
  z
    .object({
      email: z.string(),
      kind: z.enum(['address', 'untrusted_clients', 'device']),
      address: z.string().nullable(),
      blocked_until: z.string(),
    })
    .meta({ id: 'SignInBlock' }),
);

/** GET /api/sign-in-blocks/ (admin). */
export const signInBlockListSchema = z.array(signInBlockSchema).meta({ id: 'SignInBlockList' });

/** POST /api/sign-in-blocks/clear/ (admin): the sentence and how many blocks were cleared. */
export const signInBlocksClearedSchema = z.object({ detail: z.string(), cleared: z.number() }).meta({ id: 'SignInBlocksCleared' });

export const meSchema = describes<Me>()(
  z
    .object({
      id: z.number(),
      role: z.enum(ROLES),
      email: z.string().nullable(),
      first_name: z.string(),
      last_name: z.string(),
      must_change_password: z.boolean(),
      public_id: z.string(),
    })
    .meta({ id: 'Me' }),
);

export const parentMeSchema = describes<ParentMe>()(
  meSchema
    .omit({ public_id: true })
    .extend({
      role: z.literal('parent'),
      parent: z.object({ name: z.string(), phone: z.string(), email: z.string().nullable() }),
      children: z.array(parentMeChildSchema),
    })
    .meta({ id: 'ParentMe' }),
);

/** GET /api/me/: who the bearer token belongs to (a parent: with their record and children). */
export const currentAccountSchema = z.union([parentMeSchema, meSchema]).meta({ id: 'CurrentAccount' });
