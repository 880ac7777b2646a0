import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TIMINGS, USER_TYPE } from '@portal/domain/constants';
import { PEOPLE_MESSAGES, staffCreateSchema, staffCreated, type ImportedAccount } from '@portal/domain/people';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useCreateStaff } from '../api';
import { PasswordPair, StaffFields } from '../components/person-fields';
import { ScreenLayout } from '../components/screen-layout';
import { OneTimePasswordNotice } from '../components/sign-in-slips';
import { newAccountSlip } from '../new-sign-ins-store';
import { PersonForm, useSaveFailure } from '../components/person-form';
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
  const { failed, frame } = useSaveFailure(form);
  const [done, setDone] = useState<{ message: string; account?: ImportedAccount } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onValid(values: typeof EMPTY) {
    const body = staffBody(values);
    try {
      const res = await create.mutateAsync({ ...body, user_type: USER_TYPE.staff });
      const message = staffCreated(`${res.user.first_name} ${res.user.last_name}`, res.staff_id);
      const account = newAccountSlip(res, res.staff_id, res.designation);
      setDone({ message, account });
      // To the staff list 3 seconds after success; the one-time password goes along, in memory.
      timer.current = setTimeout(() => {
        setCreatedFlash({ message, account });
        navigate(base, { replace: true });
      }, TIMINGS.registrationRedirect);
    } catch (err) {
      failed(err, (e) => (e as { detail?: string }).detail ?? PEOPLE_MESSAGES.staffCreateFailed);
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
          <PersonForm
            {...frame(onValid)}
            submit={{ label: 'Create Staff', busyLabel: 'Creating...', busy: create.isPending }}
            actions={
              <>
                <ButtonLink to={base} variant="secondary">
                  Cancel
                </ButtonLink>
                <ButtonLink to={base} variant="ghost">
                  View Staff List
                </ButtonLink>
              </>
            }
          >
            <StaffFields field={form.field} mode="create" />
            <PasswordPair field={form.field} hint="Leave blank to generate a one-time password." />
          </PersonForm>
        </Card>
      )}
    </ScreenLayout>
  );
}
