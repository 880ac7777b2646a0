import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  noticeKindSchema,
  noticeRemindersResponseSchema,
  noticeRemindersSchema,
  noticeTemplateBodySchema,
  noticeTemplateListSchema,
  noticeTemplateViewSchema,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import type { NoticeTemplatesService } from './templates.service';

/** The school's notice templates and fee-reminder days (admin only; decision record 037). */
export function noticeTemplatesRoutes(
  app: FastifyInstance,
  { noticeTemplates: service }: { noticeTemplates: NoticeTemplatesService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notices'];

  r.get('/api/notice-templates/', { config: { auth: ADMIN_ONLY }, schema: { tags, response: { 200: noticeTemplateListSchema } } }, () =>
    service.list(),
  );
  r.put(
    '/api/notice-templates/:kind/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        params: z.object({ kind: noticeKindSchema }),
        body: noticeTemplateBodySchema,
        response: { 200: noticeTemplateViewSchema },
      },
    },
    (req) => service.put(currentActor(req), req.params.kind, req.body),
  );
  r.get(
    '/api/notice-reminders/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, response: { 200: noticeRemindersResponseSchema } } },
    () => service.reminders(),
  );
  r.put(
    '/api/notice-reminders/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: noticeRemindersSchema, response: { 200: noticeRemindersResponseSchema } } },
    (req) => service.putReminders(currentActor(req), req.body),
  );
}
