import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { admissionFormatProblem, formatAdmissionNumberAs } from '@portal/domain/constants';
import { schoolSettingsSchema, type SchoolSettings } from '@portal/domain/settings';
import { SETTINGS_MESSAGES } from '@portal/domain/settings-constants';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { TextAreaField, TextField } from '../../components/ui/field';
import { LoadingBlock } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { schoolYear } from '../../lib/datetime';
import { useToast } from '../../lib/toast';
import { useSaveSettings, useSchoolSettings } from '../../lib/school-settings';

type Errors = Partial<Record<keyof SchoolSettings, string[]>>;

/** Admin: the school's identity used by the home page, the login header and every printout. */
export function SettingsPage() {
  const { data, isPending, isError } = useSchoolSettings();
  const save = useSaveSettings();
  const toast = useToast();
  const [form, setForm] = useState<SchoolSettings | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (data && !form) setForm(data);
  }, [data, form]);

  if (isPending || (!form && !isError))
    return (
      <PageLayout title="School Settings">
        <LoadingBlock />
      </PageLayout>
    );
  if (isError || !form)
    return (
      <PageLayout title="School Settings">
        <Alert tone="error">{SETTINGS_MESSAGES.loadFailed}</Alert>
      </PageLayout>
    );

  const set = <K extends keyof SchoolSettings>(key: K, value: SchoolSettings[K]) => {
    setForm({ ...form, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const text = (key: keyof SchoolSettings) => ({
    value: String(form[key]),
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value as never),
  });
  const year = (key: 'founded_year' | 'registered_year' | 'first_graduation_year') => ({
    type: 'number' as const,
    inputMode: 'numeric' as const,
    value: String(form[key]),
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, Number(e.target.value)),
  });

  function onLogo(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > 200_000) {
      setErrors((x) => ({ ...x, logo: [SETTINGS_MESSAGES.logoTooLarge] }));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => set('logo', typeof reader.result === 'string' ? reader.result : '');
    reader.readAsDataURL(file);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = schoolSettingsSchema.safeParse(form);
    if (!parsed.success) {
      const errs: Errors = {};
      for (const i of parsed.error.issues) (errs[i.path[0] as keyof SchoolSettings] ??= []).push(i.message);
      setErrors(errs);
      return;
    }
    try {
      // The server answers with what it stored: the logo shrunk to at most 256 px.
      setForm(await save.mutateAsync(parsed.data));
      toast.success(SETTINGS_MESSAGES.saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
      else toast.error(SETTINGS_MESSAGES.saveFailed);
    }
  }

  return (
    <PageLayout title="School Settings">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <Card title="Identity">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="School name" required {...text('school_name')} />
            <TextField label="Motto" {...text('motto')} />
            <TextField label="Address" {...text('address')} />
            <TextField label="Phone" {...text('phone')} />
            <TextField label="Email" type="email" {...text('email')} />
            <div className="flex flex-col gap-2">
              <TextField
                label="Logo (PNG, JPEG or SVG, under 200 KB)"
                type="file"
                accept="image/png,image/jpeg,image/svg+xml"
                onChange={onLogo}
                error={errors.logo}
              />
              {form.logo && (
                <div className="flex items-center gap-3">
                  <img src={form.logo} alt="Current logo" className="h-14 w-14 rounded border object-contain" />
                  <Button variant="ghost" onClick={() => set('logo', '')}>
                    Remove logo
                  </Button>
                </div>
              )}
            </div>
          </div>
        </Card>
        <Card title="Public home page">
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField label="Founded" {...year('founded_year')} />
            <TextField label="Registered" {...year('registered_year')} />
            <TextField label="First graduation" {...year('first_graduation_year')} />
          </div>
          <div className="mt-4 grid gap-4">
            <TextField
              label="Admission process link"
              hint={
                <>
                  Optional: an online application form elsewhere (https://…). The home page always links the portal’s own{' '}
                  <Link to="/settings/admission" className="font-medium text-brand-800 underline">
                    admission page
                  </Link>
                  , which then offers this address as “Apply online”.
                </>
              }
              {...text('admission_url')}
            />
            <TextField
              label="Time zone"
              hint="Every date and time on screens, receipts and report cards, e.g. Africa/Lagos."
              {...text('time_zone')}
            />
            <TextAreaField label="About the school" rows={3} {...text('about')} />
          </div>
        </Card>
        <Card title="Admission numbers">
          <div className="grid gap-4">
            <TextField
              label="Admission number format"
              autoComplete="off"
              {...text('admission_number_format')}
              hint={
                <>
                  Letters, digits, - and /, with {'{NNNN}'} for the zero-padded counter and optionally {'{YYYY}'} or {'{YY}'} for the year
                  of registration, e.g. RMC/{'{YYYY}'}/{'{NNNN}'}. Applies to new registrations and imports; existing numbers never change.
                </>
              }
            />
            <p className="text-sm text-slate-700" data-testid="admission-format-example">
              {admissionFormatProblem(form.admission_number_format.trim().toUpperCase())
                ? SETTINGS_MESSAGES.admissionExampleNeedsFix
                : `Example: ${formatAdmissionNumberAs(form.admission_number_format.trim(), 12, schoolYear())}`}
            </p>
          </div>
        </Card>
        <div>
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save settings'}
          </Button>
        </div>
      </form>
    </PageLayout>
  );
}
