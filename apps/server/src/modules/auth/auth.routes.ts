import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  AUTH_MESSAGES,
  currentAccountSchema,
  detailMessageSchema,
  EVERY_ACCOUNT,
  loginRequestSchema,
  loginResponseSchemas,
  parentLoginRequestSchema,
  passwordChangedSchema,
  passwordChangeSchema,
  refreshRequestSchema,
  type Role,
  signInBlockClearSchema,
  signInBlockListSchema,
  signInBlocksClearedSchema,
  studentLoginRequestSchema,
  tokenPairSchema,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { currentUser } from '../../http/auth';
import { fieldErrorsFromIssues } from '../../http/errors';
import { deviceTokenOf, setDeviceCookie } from '../../http/device-cookie';
import { clearViewCookie, setViewCookie } from '../../http/view-cookie';
import type { AuthService } from './auth.service';

export function authRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'config' | 'tokens'> & { auth: AuthService }): void {
  const service = deps.auth;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const perAddress = { max: deps.config.loginLimits.perAddressPerMinute, timeWindow: '1 minute' };

  for (const role of ['admin', 'staff', 'student', 'parent'] as const satisfies readonly Role[]) {
    r.post(
      `/api/${role}/login/`,
      {
        config: { auth: 'public', rateLimit: perAddress },
        schema: {
          tags: ['auth'],
          summary: `Sign in as ${role}`,
          body: z.unknown(),
          response: { 200: loginResponseSchemas[role] },
        },
      },
      async (request, reply) => {
        // Students may give their admission number in `email`; staff and the admin an email only.
        // Parents their phone number or their email.
        const parsed =
          role === 'student'
            ? studentLoginRequestSchema.safeParse(request.body ?? {})
            : role === 'parent'
              ? parentLoginRequestSchema.safeParse(request.body ?? {})
              : loginRequestSchema
                  .transform((b) => ({ email: { kind: 'email' as const, email: b.email }, password: b.password }))
                  .safeParse(request.body ?? {});
        if (!parsed.success) {
          const errors = fieldErrorsFromIssues(parsed.error.issues);
          const first = Object.values(errors).flat()[0] ?? AUTH_MESSAGES.loginFailedFallback;
          // The sign-in envelope of a refusal: documented with the error envelopes (http/error-envelopes.ts).
          return (reply as FastifyReply)
            .status(400)
            .send({ status: 'error', data: null, message: first, errors: { non_field_errors: [first], ...errors } });
        }
        const { data, deviceToken } = await service.login({
          role,
          id: parsed.data.email,
          password: parsed.data.password,
          ip: request.ip,
          deviceToken: deviceTokenOf(request),
        });
        setDeviceCookie(reply, deps.config, deviceToken);
        await setViewCookie(reply, deps.tokens, deps.config, data.access);
        // The service's data is this role's (typed as every role's): each role's data schema describes its domain type.
        const answer = { status: 'success' as const, data, message: AUTH_MESSAGES.loginSuccess, errors: { non_field_errors: [] } };
        return answer as z.input<(typeof loginResponseSchemas)[typeof role]>;
      },
    );
  }

  r.post(
    '/api/token/refresh/',
    {
      config: { auth: 'public', rateLimit: perAddress },
      schema: { tags: ['auth'], body: refreshRequestSchema, response: { 200: tokenPairSchema } },
    },
    async (request, reply) => {
      const pair = await service.refresh(request.body.refresh);
      await setViewCookie(reply, deps.tokens, deps.config, pair.access);
      return pair;
    },
  );

  r.post(
    '/api/logout/',
    {
      config: { auth: EVERY_ACCOUNT, allowPasswordChangePending: true },
      schema: {
        tags: ['auth'],
        body: z.object({ refresh: z.string().max(4096).optional() }).optional(),
        response: { 200: detailMessageSchema },
      },
    },
    async (request, reply) => {
      await service.logout(currentUser(request).familyId, request.body?.refresh);
      clearViewCookie(reply, deps.config);
      return { detail: AUTH_MESSAGES.loggedOut };
    },
  );

  r.post(
    '/api/password/change/',
    {
      config: { auth: EVERY_ACCOUNT, allowPasswordChangePending: true, rateLimit: perAddress },
      schema: { tags: ['auth'], body: passwordChangeSchema, response: { 200: passwordChangedSchema } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const pair = await service.changePassword(user.id, user.familyId, request.body.old_password, request.body.new_password);
      await setViewCookie(reply, deps.tokens, deps.config, pair.access);
      return { detail: AUTH_MESSAGES.passwordChanged, ...pair };
    },
  );

  // Sign-in blocks: the admin sees which account is blocked from which address, and clears it.
  r.get(
    '/api/sign-in-blocks/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['auth'], summary: 'Sign-in blocks in force', response: { 200: signInBlockListSchema } },
    },
    async () => service.listSignInBlocks(),
  );

  r.post(
    '/api/sign-in-blocks/clear/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags: ['auth'],
        summary: 'Clear the sign-in blocks of an account',
        body: signInBlockClearSchema,
        response: { 200: signInBlocksClearedSchema },
      },
    },
    async (request) => {
      const cleared = await service.clearSignInBlocks(currentUser(request).id, request.body.email, request.body.address);
      return { detail: AUTH_MESSAGES.signInBlockCleared, cleared };
    },
  );

  r.get(
    '/api/me/',
    {
      config: { auth: EVERY_ACCOUNT, allowPasswordChangePending: true },
      schema: { tags: ['auth'], response: { 200: currentAccountSchema } },
    },
    async (request) => service.me(currentUser(request).id),
  );
}
