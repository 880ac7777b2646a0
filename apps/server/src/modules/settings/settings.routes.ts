import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_ONLY,
  admissionPageResponseSchema,
  admissionPageSchema,
  reportSettingsResponseSchema,
  reportSettingsSchema,
  schoolSettingsResponseSchema,
  schoolSettingsSchema,
  STAFF_OR_ADMIN,
  webAppManifest,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import { headerNamesTag } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import type { SettingsService } from './settings.service';

export function settingsRoutes(app: FastifyInstance, { settings: service }: { settings: SettingsService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/settings/',
    { config: { auth: 'public' }, schema: { tags: ['settings'], response: { 200: schoolSettingsResponseSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return service.get();
    },
  );

  r.put(
    '/api/settings/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['settings'], body: schoolSettingsSchema, response: { 200: schoolSettingsResponseSchema } },
    },
    async (request) => service.update(currentUser(request).id, request.body),
  );

  // The report card's settings: staff read them (the sheets show the traits and labels).
  r.get(
    '/api/report-settings/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags: ['settings'], response: { 200: reportSettingsResponseSchema } } },
    async (_request, reply) => {
      const { settings, tag } = await service.taggedReportSettings();
      // The form sends it back as If-Match: a save over settings changed since is refused (decision 059).
      void reply.header('etag', tag);
      return settings;
    },
  );
  r.put(
    '/api/report-settings/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['settings'], body: reportSettingsSchema, response: { 200: reportSettingsResponseSchema } },
    },
    async (request, reply) => {
      const ifMatch = request.headers['if-match'];
      const { settings, tag } = await service.updateReport(
        currentUser(request).id,
        request.body,
        ifMatch === undefined ? undefined : (current) => headerNamesTag(ifMatch, current),
      );
      void reply.header('etag', tag);
      return settings;
    },
  );

  // The portal's own admission page: public text, edited by the admin.
  r.get(
    '/api/admission/',
    { config: { auth: 'public' }, schema: { tags: ['settings'], response: { 200: admissionPageResponseSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return service.admissionPage();
    },
  );
  r.put(
    '/api/admission/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['settings'], body: admissionPageSchema, response: { 200: admissionPageResponseSchema } },
    },
    async (request) => service.updateAdmission(currentUser(request).id, request.body),
  );

  // The installable app's manifest (docs/decisions/045): the school's own name under the icon. Browsers
  // fetch it without cookies; revalidated so a renamed school shows at the next start.
  r.get(
    '/manifest.webmanifest',
    {
      config: { auth: 'public' },
      schema: { hide: true, response: { 200: binaryResponse('application/manifest+json', 'The web app manifest') } },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      void reply.type('application/manifest+json; charset=utf-8');
      return JSON.stringify(webAppManifest((await service.get()).school_name));
    },
  );
}
