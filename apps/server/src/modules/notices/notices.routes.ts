import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  EVERY_ACCOUNT,
  idParams,
  inboxNoticeSchema,
  inboxPageSchema,
  noticeDeliveryReportResponseSchema,
  noticeLogPageSchema,
  noticePreferencesViewSchema,
  noticeSettingsViewSchema,
  inboxQuerySchema,
  noticeLogQuerySchema,
  noticePreferencesSchema,
  noticeSettingsSchema,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { NoticeSettingsService } from './notice-settings.service';
import type { NoticesService } from './notices.service';

export interface NoticesRoutesDeps {
  notices: NoticesService;
  noticeSettings: NoticeSettingsService;
}

const tags = ['notices'];

/** The notices' delivery side (docs/decisions/036): the inbox, preferences, settings, the log and delivery reports. */
export function noticesRoutes(app: FastifyInstance, { notices, noticeSettings }: NoticesRoutesDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/notices/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: { tags, summary: 'My in-app notices, newest first', querystring: inboxQuerySchema, response: { 200: inboxPageSchema } },
    },
    (request) => notices.inbox(currentUser(request).id, request.query.page),
  );
  r.post(
    '/api/notices/:id/read/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: { tags, summary: 'Mark one of my notices read', params: idParams, response: { 200: inboxNoticeSchema } },
    },
    (request) => notices.markRead(currentUser(request).id, request.params.id),
  );

  r.get(
    '/api/notice-preferences/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: { tags, summary: 'Which kinds of notices I get', response: { 200: noticePreferencesViewSchema } },
    },
    (request) => notices.preferences(currentUser(request).id),
  );
  r.put(
    '/api/notice-preferences/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: {
        tags,
        summary: 'Turn kinds of notices off or on (never receipts)',
        body: noticePreferencesSchema,
        response: { 200: noticePreferencesViewSchema },
      },
    },
    (request) => notices.putPreferences(currentUser(request).id, request.body),
  );

  r.get(
    '/api/notice-settings/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: "The school's notice settings and channels", response: { 200: noticeSettingsViewSchema } },
    },
    () => noticeSettings.view(),
  );
  r.put(
    '/api/notice-settings/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: "Save the school's notice settings",
        body: noticeSettingsSchema,
        response: { 200: noticeSettingsViewSchema },
      },
    },
    (request) => noticeSettings.put(currentUser(request).id, request.body),
  );

  r.get(
    '/api/notice-messages/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Every message and its delivery state',
        querystring: noticeLogQuerySchema,
        response: { 200: noticeLogPageSchema },
      },
    },
    (request) => notices.log({ status: request.query.status, kind: request.query.kind }, request.query.page),
  );

  // Providers' delivery reports: JSON (Termii) or form fields (Africa's Talking), read from the raw
  // body in a scope of their own; the secret in the query (`secret`, redacted in logs) or x-notice-secret.
  const providerParams = z.object({ provider: z.string().min(1).max(40) });
  const secretQuery = z.object({ secret: z.string().max(512).optional() });
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, next) => next(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/notices/delivery/:provider/',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: "A provider's delivery reports, verified by NOTICE_WEBHOOK_SECRET",
          params: providerParams,
          querystring: secretQuery,
          response: { 200: noticeDeliveryReportResponseSchema },
        },
      },
      (request) => {
        const header = request.headers['x-notice-secret'];
        const secret = (Array.isArray(header) ? header[0] : header) ?? request.query.secret;
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return notices.deliveryReport(request.params.provider, secret, raw, request.headers['content-type']);
      },
    );
    done();
  });
}
