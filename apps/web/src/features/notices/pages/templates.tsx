import { useEffect, useMemo, useState } from 'react';
import {
  NOTICE_LIMITS,
  NOTICE_SAMPLE_VALUES,
  NOTICE_TEMPLATE_MESSAGES,
  renderTemplate,
  type NoticeTemplateText,
} from '@portal/domain/notice-templates';
import { noticeTemplateSchema } from '@portal/domain/notice-templates-schemas';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { Button, SubmitButton } from '../../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { fieldErrorsOf, firstServerMessage } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useSaveTemplate, useTemplates } from '../api';
import { SmsCount } from '../components/sms-count';
import { NOTICE_KIND_LABELS, type NoticeKind, type NoticeTemplate } from '../contract';

interface Form extends Record<string, string> {
  sms_body: string;
  email_subject: string;
  email_body: string;
}

const formOf = (t: NoticeTemplateText): Form => ({ sms_body: t.sms_body, email_subject: t.email_subject, email_body: t.email_body });

/** One kind's template: its SMS text with the live unit count, its email, the placeholders it may use. */
function TemplateEditor({ template }: { template: NoticeTemplate }) {
  const save = useSaveTemplate();
  const toast = useToast();
  const form = useSchemaForm<Form>({
    defaultValues: formOf(template),
    schema: noticeTemplateSchema(template.kind),
    toBody: (f) => ({ sms_body: f.sms_body, email_subject: f.email_subject, email_body: f.email_body }),
  });

  const preview = renderTemplate(form.values.sms_body ?? '', NOTICE_SAMPLE_VALUES);

  async function onValid(_values: Form, body: unknown) {
    try {
      await save.mutateAsync({ kind: template.kind, body: body as Form });
      toast.success(NOTICE_TEMPLATE_MESSAGES.templateSaved);
    } catch (err) {
      const errs = fieldErrorsOf(err);
      if (Object.keys(errs).length) form.fail(errs);
      else toast.error(firstServerMessage(err) ?? M.templateSaveFailed);
    }
  }

  return (
    <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate className="flex flex-col gap-4">
      <Card title={NOTICE_KIND_LABELS[template.kind]}>
        <div className="flex flex-col gap-4">
          <div>
            <TextAreaField label={L.smsBody} rows={4} maxLength={NOTICE_LIMITS.smsBody} required {...form.field('sms_body')} />
            <p className="mt-2 text-xs font-medium text-slate-700">{L.preview}</p>
            <p className="text-sm text-slate-800 [overflow-wrap:anywhere]" data-testid="sms-preview">
              {preview}
            </p>
            <SmsCount text={preview} />
          </div>
          <TextField label={L.emailSubject} maxLength={NOTICE_LIMITS.emailSubject} required {...form.field('email_subject')} />
          <TextAreaField label={L.emailBody} rows={6} maxLength={NOTICE_LIMITS.emailBody} required {...form.field('email_body')} />
          <div>
            <h3 className="text-sm font-semibold">{L.placeholders}</h3>
            <dl className="mt-1 grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" data-testid="placeholders">
              {template.placeholders.map((p) => (
                <div key={p.name} className="contents">
                  <dt>
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-900">{`{${p.name}}`}</code>
                  </dt>
                  <dd className="mb-1 text-slate-700 sm:mb-0">{p.description}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
        <div className="mt-5 flex flex-wrap gap-2">
          <SubmitButton busy={save.isPending} busyLabel="Saving...">
            {L.saveTemplate}
          </SubmitButton>
          {!template.is_default && (
            <Button variant="secondary" onClick={() => form.setValues(formOf(template.default))}>
              {L.resetTemplate}
            </Button>
          )}
        </div>
      </Card>
    </form>
  );
}

function Templates({ templates }: { templates: NoticeTemplate[] }) {
  const [kind, setKind] = useState<NoticeKind | ''>('');
  useEffect(() => {
    if (!kind && templates[0]) setKind(templates[0].kind);
  }, [kind, templates]);
  const options = useMemo(() => templates.map((t) => ({ value: t.kind, label: NOTICE_KIND_LABELS[t.kind] })), [templates]);
  const template = templates.find((t) => t.kind === kind);
  return (
    <div className="flex flex-col gap-4">
      <div className="max-w-sm">
        <SelectField label={L.kind} options={options} value={kind} onChange={(e) => setKind(e.target.value as NoticeKind)} />
      </div>
      {/* A new editor per kind: what was typed for one kind is not carried to another. */}
      {template && <TemplateEditor key={template.kind} template={template} />}
    </div>
  );
}

/** Admin: the wording of each kind of notice, by SMS and email, checked by the server when saved. */
export default function TemplatesPage() {
  const templates = useTemplates();
  return (
    <PageLayout title={S.templates.label} width="max-w-3xl">
      <QueryView query={templates} messages={M.templatesFailed}>
        {(data) => <Templates templates={data} />}
      </QueryView>
    </PageLayout>
  );
}
