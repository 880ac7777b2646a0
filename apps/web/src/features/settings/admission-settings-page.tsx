import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { admissionPageSchema } from '@portal/domain/admission';
import { ADMISSION_MESSAGES as M, ADMISSION_PAGE_FIELDS, ADMISSION_TEXT_MAX, type AdmissionPage } from '@portal/domain/admission-constants';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { TextAreaField } from '../../components/ui/field';
import { LoadingBlock } from '../../components/ui/spinner';
import { useAdmissionPage, useSaveAdmissionPage } from '../../lib/admission-page';
import { ApiError } from '../../lib/api-client';
import { useToast } from '../../lib/toast';

type Errors = Partial<Record<keyof AdmissionPage, string[]>>;

/** /settings/admission (admin): the text of the public Admission process page. */
export function AdmissionSettingsPage() {
  const { data, isPending, isError } = useAdmissionPage();
  const save = useSaveAdmissionPage();
  const toast = useToast();
  const [form, setForm] = useState<AdmissionPage | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (data && !form) setForm(data);
  }, [data, form]);

  if (isPending || (!form && !isError))
    return (
      <PageLayout title={M.settingsTitle}>
        <LoadingBlock />
      </PageLayout>
    );
  if (isError || !form)
    return (
      <PageLayout title={M.settingsTitle}>
        <Alert tone="error">{M.loadFailed}</Alert>
      </PageLayout>
    );

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = admissionPageSchema.safeParse(form);
    if (!parsed.success) {
      const errs: Errors = {};
      for (const i of parsed.error.issues) (errs[i.path[0] as keyof AdmissionPage] ??= []).push(i.message);
      setErrors(errs);
      return;
    }
    try {
      setForm(await save.mutateAsync(parsed.data));
      toast.success(M.saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
      else toast.error(M.saveFailed);
    }
  }

  return (
    <PageLayout title={M.settingsTitle}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <Card>
          <p className="mb-4 text-sm text-slate-700">
            {M.settingsHint}{' '}
            <Link to="/admission" className="font-medium text-brand-800 underline">
              View the page
            </Link>
          </p>
          <div className="grid gap-4">
            {ADMISSION_PAGE_FIELDS.map((f) => (
              <TextAreaField
                key={f.key}
                label={f.label}
                rows={4}
                maxLength={ADMISSION_TEXT_MAX}
                value={form[f.key]}
                error={errors[f.key]}
                onChange={(e) => {
                  setForm({ ...form, [f.key]: e.target.value });
                  setErrors((x) => ({ ...x, [f.key]: undefined }));
                }}
              />
            ))}
          </div>
        </Card>
        <div>
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save admission page'}
          </Button>
        </div>
      </form>
    </PageLayout>
  );
}
