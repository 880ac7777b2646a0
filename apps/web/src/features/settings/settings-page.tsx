import { useEffect, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { admissionFormatProblem, formatAdmissionNumberAs } from '@portal/domain/constants';
import { schoolSettingsSchema, type SchoolSettings } from '@portal/domain/settings';
import { SETTINGS_MESSAGES } from '@portal/domain/settings-constants';
import { FEE_GATE_MESSAGES } from '@portal/domain/card-fee-gate';
import { CheckboxField } from '../../components/ui/checkbox-field';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SubmitButton } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { LoadingBlock } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { schoolYear } from '../../lib/datetime';
import { useToast } from '../../lib/toast';
import { useSaveSettings, useSchoolSettings } from '../../lib/school-settings';
import { useSchemaForm } from '../../lib/schema-form';

type Year = 'founded_year' | 'registered_year' | 'first_graduation_year' | 'results_fee_gate_percent';
/** Result-checker PINs (decision 043): kept as loaded and saved back unchanged by this form. */
type Pins = 'result_pins_enabled' | 'result_pin_uses';
/** The form's values: every setting as the text of its field (the years too). */
type Form = Omit<SchoolSettings, Year | Pins | 'results_fee_gate'> & Record<Year | Pins | 'results_fee_gate', string>;

const formOf = (s: SchoolSettings): Form => ({
  ...s,
  founded_year: String(s.founded_year),
  registered_year: String(s.registered_year),
  first_graduation_year: String(s.first_graduation_year),
  result_pins_enabled: String(s.result_pins_enabled),
  result_pin_uses: String(s.result_pin_uses),
  results_fee_gate_percent: String(s.results_fee_gate_percent),
  results_fee_gate: s.results_fee_gate ? 'on' : '',
});

/** The settings the form would save: the years as numbers. */
const settingsOf = (f: Form): SchoolSettings => ({
  ...f,
  founded_year: Number(f.founded_year),
  registered_year: Number(f.registered_year),
  first_graduation_year: Number(f.first_graduation_year),
  result_pins_enabled: f.result_pins_enabled === 'true',
  result_pin_uses: Number(f.result_pin_uses),
  results_fee_gate_percent: Number(f.results_fee_gate_percent),
  results_fee_gate: f.results_fee_gate === 'on',
});

const EMPTY = formOf({
  school_name: '',
  motto: '',
  address: '',
  phone: '',
  email: '',
  logo: '',
  founded_year: 0,
  registered_year: 0,
  first_graduation_year: 0,
  admission_url: '',
  about: '',
  admission_number_format: '',
  time_zone: '',
  result_pins_enabled: false,
  result_pin_uses: 5,
  results_fee_gate: false,
  results_fee_gate_percent: 100,
});

/** Admin: the school's identity used by the home page, the login header and every printout. */
export function SettingsPage() {
  const { data, isPending, isError } = useSchoolSettings();
  const save = useSaveSettings();
  const toast = useToast();
  const form = useSchemaForm<Form>({ defaultValues: EMPTY, schema: schoolSettingsSchema, toBody: settingsOf });
  const { setValues } = form;
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (data && !loaded) {
      setValues(formOf(data));
      setLoaded(true);
    }
  }, [data, loaded, setValues]);

  if (isPending || (!loaded && !isError))
    return (
      <PageLayout title="School Settings">
        <LoadingBlock />
      </PageLayout>
    );
  if (isError || !loaded)
    return (
      <PageLayout title="School Settings">
        <Alert tone="error">{SETTINGS_MESSAGES.loadFailed}</Alert>
      </PageLayout>
    );

  const { set, values } = form;
  const text = (key: keyof Form) => {
    const { value, error, onChange } = form.field(key);
    return { value, error, onChange };
  };
  const year = (key: Year) => ({ type: 'number' as const, inputMode: 'numeric' as const, ...text(key) });

  function onLogo(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > 200_000) {
      form.fail({ logo: [SETTINGS_MESSAGES.logoTooLarge] }, { keep: true, focus: false });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => set('logo', typeof reader.result === 'string' ? reader.result : '');
    reader.readAsDataURL(file);
  }

  async function onValid(_values: Form, body: unknown) {
    try {
      // The server answers with what it stored: the logo shrunk to at most 256 px.
      setValues(formOf(await save.mutateAsync(body as SchoolSettings)));
      toast.success(SETTINGS_MESSAGES.saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors);
      else toast.error(SETTINGS_MESSAGES.saveFailed);
    }
  }

  return (
    <PageLayout title="School Settings">
      <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate className="flex flex-col gap-5">
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
                error={form.errors.logo}
              />
              {values.logo && (
                <div className="flex items-center gap-3">
                  <img src={values.logo} alt="Current logo" className="h-14 w-14 rounded border object-contain" />
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
              {admissionFormatProblem(values.admission_number_format.trim().toUpperCase())
                ? SETTINGS_MESSAGES.admissionExampleNeedsFix
                : `Example: ${formatAdmissionNumberAs(values.admission_number_format.trim(), 12, schoolYear())}`}
            </p>
          </div>
        </Card>
        <Card title="Report cards and fees">
          <div className="grid gap-4">
            <CheckboxField
              className="min-h-11 items-center"
              label={FEE_GATE_MESSAGES.settingLabel}
              checked={values.results_fee_gate === 'on'}
              onChange={(on) => set('results_fee_gate', on ? 'on' : '')}
            />
            <p className="text-sm text-slate-700">{FEE_GATE_MESSAGES.settingHint}</p>
            {values.results_fee_gate === 'on' && (
              <TextField
                label={FEE_GATE_MESSAGES.percentLabel}
                type="number"
                inputMode="numeric"
                min={1}
                max={100}
                {...text('results_fee_gate_percent')}
              />
            )}
          </div>
        </Card>
        <div>
          <SubmitButton busy={save.isPending} busyLabel="Saving...">
            Save settings
          </SubmitButton>
        </div>
      </form>
    </PageLayout>
  );
}
