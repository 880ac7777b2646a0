import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  admissionNumberParams,
  idParams,
  PARENT_MESSAGES,
  PARENT_ONLY,
  parentBackfillResponseSchema,
  parentChildrenResponseSchema,
  parentConflictListSchema,
  parentConflictResolveSchema,
  parentCreateSchema,
  parentDetailSchema,
  parentInvitationResponseSchema,
  parentInvitationSchema,
  parentLinkSchema,
  parentListQuerySchema,
  parentListResponseSchema,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { sendAttachment } from '../../http/attachment';
import { binaryResponse, noContent } from '../../http/response-schemas';
import { currentUser } from '../../http/auth';
import { paymentOrigin } from '../../http/public-origin';
import { writeRoutes } from '../../http/write-route';
import type { SettingsService } from '../settings/settings.service';
import type { FamilyService } from './family.service';
import { parentSlipsPdf } from './parents.documents';
import type { ParentsService } from './parents.service';

/** The parents services the routes call (built once by the composition root). */
export interface ParentsRoutesDeps extends Pick<AppDeps, 'config' | 'pdfRenders'> {
  parents: ParentsService;
  family: FamilyService;
  settings: SettingsService;
}

/** Parents (issue 33, decision 035): the admin's parents screens and a parent's own home. */
export function parentsRoutes(app: FastifyInstance, deps: ParentsRoutesDeps): void {
  const { parents, family } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['parents'];
  const write = writeRoutes(r, tags);

  r.get(
    '/api/parents/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Parents, by name, phone or email',
        querystring: parentListQuerySchema,
        response: { 200: parentListResponseSchema },
      },
    },
    async (request) => parents.list(request.query),
  );
  r.get(
    '/api/parents/conflicts/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Phones given under names that disagree, for the admin to settle',
        response: { 200: parentConflictListSchema },
      },
    },
    async () => parents.conflicts(),
  );
  r.get(
    '/api/parents/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'A parent and the children linked', params: idParams, response: { 200: parentDetailSchema } },
    },
    async (request) => parents.get(request.params.id),
  );
  write(
    'POST',
    '/api/parents/',
    { auth: ADMIN_ONLY, status: 201 },
    { body: parentCreateSchema, response: { 201: parentDetailSchema } },
    (user, request) => parents.create(user, request.body),
  );
  write(
    'POST',
    '/api/parents/:id/links/',
    { auth: ADMIN_ONLY, status: 201 },
    { params: idParams, body: parentLinkSchema, response: { 201: parentDetailSchema } },
    (user, request) => parents.link(user, request.params.id, request.body),
  );
  write(
    'DELETE',
    '/api/parents/:id/links/:admission_number/',
    { auth: ADMIN_ONLY, status: 204 },
    { params: idParams.extend(admissionNumberParams.shape), response: { 204: noContent } },
    (user, request) => parents.unlink(user, request.params.id, request.params.admission_number),
  );
  write(
    'POST',
    '/api/parents/conflicts/resolve/',
    { auth: ADMIN_ONLY },
    { body: parentConflictResolveSchema, response: { 200: parentConflictListSchema } },
    (user, request) => parents.resolveConflict(user, request.body),
  );
  write(
    'POST',
    '/api/parents/invitations/',
    { auth: ADMIN_ONLY },
    { body: parentInvitationSchema, response: { 200: parentInvitationResponseSchema } },
    async (user, request) => {
      const result = await parents.invite(user, request.body);
      return { ...result, detail: PARENT_MESSAGES.invited(result.invited) };
    },
  );
  r.post(
    '/api/parents/invitations/pdf/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Invite parents and print their sign-in slips (A4 PDF)',
        body: parentInvitationSchema,
        response: { 200: binaryResponse('application/pdf', 'The sign-in slips, as an A4 PDF') },
      },
    },
    async (request, reply) => {
      const result = await parents.invite(currentUser(request), request.body);
      const school = await deps.settings.get();
      const signInAt = `${paymentOrigin(request, deps.config)}/ParentLogin`;
      const pdf = await deps.pdfRenders.run(() => parentSlipsPdf(result.slips, { name: school.school_name, signInAt }));
      return sendAttachment(reply, 'pdf', 'parent-slips.pdf', pdf);
    },
  );
  write(
    'POST',
    '/api/parents/backfill/',
    { auth: ADMIN_ONLY },
    { body: z.object({}).optional(), response: { 200: parentBackfillResponseSchema } },
    (user) => parents.backfill(user),
  );

  r.get(
    '/api/parent/children/',
    {
      config: { auth: PARENT_ONLY },
      schema: { tags, summary: "A parent's children with the current term at a glance", response: { 200: parentChildrenResponseSchema } },
    },
    async (request) => family.children(currentUser(request)),
  );
}
