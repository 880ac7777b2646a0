import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { TIMINGS, USER_TYPE } from '@portal/domain/constants';
import { PEOPLE_MESSAGES, staffCreateSchema, staffCreated, type ImportedAccount } from '@portal/domain/people';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useCreateStaff } from '../api';
import { fieldErrorsOf } from '../../../lib/errors';
import { PasswordPair, StaffFields } from '../components/person-fields';
import { ScreenLayout } from '../components/screen-layout';
import { OneTimePasswordNotice } from '../components/sign-in-slips';
import { rememberPasswords } from '../new-sign-ins-store';
import { setCreatedFlash } from '../flash';
import { useStaffBase } from '../staff-base';
import { STAFF_EDIT_EMPTY, leafField, staffBody } from '../staff-form';
import { passwordsMatch } from '../person-fields';
import { useSchemaForm } from '../../../lib/schema-form';

const EMPTY = { username: '', ...STAFF_EDIT_EMPTY, password: '', confirm_password: '' };

/** /StaffReg, /staff/create and /dashboard/staff/create: register a staff member (admin). */
export default function StaffRegPage() {
  const form = useSchemaForm({
    defaultValues: EMPTY,
    schema: staffCreateSchema,
    toBody: staffBody,
    fieldOf: leafField,
    check: passwordsMatch,
  });
  const create = useCreateStaff();
  const navigate = useNavigate();
  const base = useStaffBase();
  const [banner, setBanner] = useState<string | null>(null);
  const [done, setDone] = useState<{ message: string; account?: ImportedAccount } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  function onSubmit(e: FormEvent) {
    setBanner(null);
    void form.submit(onValid)(e);
  }

  async function onValid(values: typeof EMPTY) {
    const body = staffBody(values);
    try {
      const res = await create.mutateAsync({ ...body, user_type: USER_TYPE.staff });
      const message = staffCreated(`${res.user.first_name} ${res.user.last_name}`, res.staff_id);
      const account = res.one_time_password
        ? {
            public_id: res.staff_id,
            first_name: res.first_name,
            last_name: res.last_name,
            email: res.email,
            group: res.designation,
            one_time_password: res.one_time_password,
          }
        : undefined;
      if (account) rememberPasswords([account]);
      setDone({ message, account });
      // To the staff list 3 seconds after success; the one-time password goes along, in memory.
      timer.current = setTimeout(() => {
        setCreatedFlash({ message, account });
        navigate(base, { replace: true });
      }, TIMINGS.registrationRedirect);
    } catch (err) {
      const fields = fieldErrorsOf(err, { leaf: true });
      if (Object.keys(fields).length) form.fail(fields);
      else setBanner((err as { detail?: string }).detail ?? PEOPLE_MESSAGES.staffCreateFailed);
    }
  }

  return (
    <ScreenLayout title="Staff Registration">
      {done ? (
        <div className="flex flex-col gap-3" data-testid="registration-success">
          <Alert tone="success">{done.message}</Alert>
          {done.account && <OneTimePasswordNotice account={done.account} kind="staff" />}
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={base} variant="secondary">
              View Staff List
            </ButtonLink>
            <ButtonLink to="/new-sign-ins" variant="secondary">
              Today&apos;s sign-in slips
            </ButtonLink>
          </div>
        </div>
      ) : (
        <Card>
          <form ref={form.formRef} onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
            {banner && <Alert tone="error">{banner}</Alert>}
            <StaffFields field={form.field} mode="create" />
            <PasswordPair field={form.field} hint="Leave blank to generate a one-time password." />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" loading={create.isPending}>
                {create.isPending ? 'Creating...' : 'Create Staff'}
              </Button>
              <ButtonLink to={base} variant="secondary">
                Cancel
              </ButtonLink>
              <ButtonLink to={base} variant="ghost">
                View Staff List
              </ButtonLink>
            </div>
          </form>
        </Card>
      )}
    </ScreenLayout>
  );
}
