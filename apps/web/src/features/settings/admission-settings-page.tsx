import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { admissionPageSchema } from '@portal/domain/admission';
import { ADMISSION_MESSAGES as M, ADMISSION_PAGE_FIELDS, ADMISSION_TEXT_MAX, type AdmissionPage } from '@portal/domain/admission-constants';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { SubmitButton } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { LoadingBlock } from '../../components/ui/spinner';
import { useAdmissionPage, useSaveAdmissionPage } from '../../lib/admission-page';
import { ApiError } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useSchemaForm } from '../../lib/schema-form';

const EMPTY: AdmissionPage = { how_to_apply: '', requirements: '', dates: '', fees: '', contact: '' };

/** /settings/admission (admin): the text of the public Admission process page. */
export function AdmissionSettingsPage() {
  const { data, isPending, isError } = useAdmissionPage();
  const save = useSaveAdmissionPage();
  const toast = useToast();
  const form = useSchemaForm<AdmissionPage>({ defaultValues: EMPTY, schema: admissionPageSchema, toBody: (v) => v });
  const { setValues } = form;
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (data && !loaded) {
      setValues(data);
      setLoaded(true);
    }
  }, [data, loaded, setValues]);

  if (isPending || (!loaded && !isError))
    return (
      <PageLayout title={M.settingsTitle}>
        <LoadingBlock />
      </PageLayout>
    );
  if (isError || !loaded)
    return (
      <PageLayout title={M.settingsTitle}>
        <Alert tone="error">{M.loadFailed}</Alert>
      </PageLayout>
    );

  async function onValid(_values: AdmissionPage, body: unknown) {
    try {
      setValues(await save.mutateAsync(body as AdmissionPage));
      toast.success(M.saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors);
      else toast.error(M.saveFailed);
    }
  }

  return (
    <PageLayout title={M.settingsTitle}>
      <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate className="flex flex-col gap-5">
        <Card>
          <p className="mb-4 text-sm text-slate-700">
            {M.settingsHint}{' '}
            <Link to="/admission" className="font-medium text-brand-800 underline">
              View the page
            </Link>
          </p>
          <div className="grid gap-4">
            {ADMISSION_PAGE_FIELDS.map((f) => (
              <TextAreaField key={f.key} label={f.label} rows={4} maxLength={ADMISSION_TEXT_MAX} {...form.field(f.key)} />
            ))}
          </div>
        </Card>
        <div>
          <SubmitButton busy={save.isPending} busyLabel="Saving...">
            Save admission page
          </SubmitButton>
        </div>
      </form>
    </PageLayout>
  );
}
