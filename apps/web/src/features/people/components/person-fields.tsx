import { GENDERS, MARITAL_STATUSES } from '@portal/domain/constants';
import { FIELD_LABELS as L, STUDENT_CONTACT_HINT } from '@portal/domain/people-constants';
import { schoolToday } from '../../../lib/datetime';
import { ClassSelect } from '../../../components/school/class-select';
import { PasswordField, SelectField, TextAreaField, TextField } from '../../../components/ui/field';

/** What `useSchemaForm().field(name)` returns. */
export type FieldProps = (name: string) => {
  name: string;
  value: string;
  error?: string[];
  onChange: (e: { target: { value: string } }) => void;
};

/** The student fields, shared by registration and update. */
export function StudentFields({ field, required = 'create' }: { field: FieldProps; required?: 'create' | 'update' }) {
  const create = required === 'create';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label={L.first_name} autoComplete="off" required {...field('first_name')} />
      <TextField label={L.last_name} autoComplete="off" required {...field('last_name')} />
      {/* Both optional for a pupil: the parents' phones are the contacts; they sign in with the admission number. */}
      <TextField label={L.email} type="email" autoComplete="off" hint={STUDENT_CONTACT_HINT} {...field('email')} />
      <TextField label={L.phone_number} type="tel" inputMode="tel" autoComplete="off" hint="10 to 15 digits" {...field('phone_number')} />
      <SelectField label={L.gender} options={GENDERS} placeholder="Select gender" {...field('gender')} />
      <TextField label={L.date_of_birth} type="date" max={schoolToday()} required={create} {...field('date_of_birth')} />
      <ClassSelect label={L.student_class} required={create} {...field('student_class')} />
      <TextField label={L.fathers_name} autoComplete="off" required={create} {...field('fathers_name')} />
      <TextField label={L.fathers_phone} type="tel" inputMode="tel" autoComplete="off" {...field('fathers_phone')} />
      <TextField label={L.mothers_name} autoComplete="off" {...field('mothers_name')} />
      <TextField label={L.mothers_phone} type="tel" inputMode="tel" autoComplete="off" {...field('mothers_phone')} />
      <div className="sm:col-span-2">
        <TextAreaField label={L.home_address} rows={2} required={create} {...field('home_address')} />
      </div>
    </div>
  );
}

/** The staff fields; `required` marks the registration or edit rules. */
export function StaffFields({
  field,
  mode,
  withProfile = true,
}: {
  field: FieldProps;
  mode: 'create' | 'edit' | 'update';
  withProfile?: boolean;
}) {
  const req = mode !== 'update';
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        {mode === 'create' && <TextField label={L.username} autoComplete="off" required {...field('username')} />}
        <TextField label={L.first_name} autoComplete="off" required={req} {...field('first_name')} />
        <TextField label={L.last_name} autoComplete="off" required={req} {...field('last_name')} />
        <TextField label={L.email} type="email" autoComplete="off" required={req} {...field('email')} />
        <TextField
          label={L.phone_number}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          required={mode === 'create'}
          hint="10 to 15 digits"
          {...field('phone_number')}
        />
        <SelectField label={L.gender} options={GENDERS} placeholder="Select gender" {...field('gender')} />
        <SelectField label={L.marital_status} options={MARITAL_STATUSES} placeholder="Select marital status" {...field('marital_status')} />
        <TextField label={L.designation} autoComplete="off" required={req} {...field('designation')} />
        <TextField label={L.department} autoComplete="off" required={req} {...field('department')} />
      </div>
      {withProfile && (
        <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2">
          <legend className="px-1 text-sm font-semibold text-slate-700">Profile (optional)</legend>
          <TextField label={L.qualifications} autoComplete="off" {...field('qualifications')} />
          <TextField label={L.employment_date} type="date" max={schoolToday()} {...field('employment_date')} />
          <TextField label={L.bank_account} autoComplete="off" inputMode="numeric" {...field('bank_account')} />
          <TextField label={L.tax_id} autoComplete="off" {...field('tax_id')} />
        </fieldset>
      )}
    </div>
  );
}

/** Optional password with confirmation: blank means "generate a one-time password" or "keep the current one". */
export function PasswordPair({ field, hint }: { field: FieldProps; hint: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <PasswordField label={L.password} autoComplete="new-password" hint={hint} {...field('password')} />
      <PasswordField label={L.confirm_password} autoComplete="new-password" {...field('confirm_password')} />
    </div>
  );
}
