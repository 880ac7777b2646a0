import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TIMINGS, USER_TYPE } from '@portal/domain/constants';
import { PEOPLE_MESSAGES, studentCreateSchema, studentRegistered, type ImportedAccount } from '@portal/domain/people';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useCreateStudent } from '../api';
import { fieldErrorsOf } from '../../../lib/errors';
import { PasswordPair, StudentFields } from '../components/person-fields';
import { OneTimePasswordNotice } from '../components/sign-in-slips';
import { rememberPasswords } from '../new-sign-ins-store';
import { compact, useSchemaForm } from '../../../lib/schema-form';
import { STUDENT_FORM_EMPTY } from '../student-form';
import { passwordsMatch } from '../person-fields';

const EMPTY = STUDENT_FORM_EMPTY;

interface Registered {
  message: string;
  account?: ImportedAccount;
}

/** /StudentReg: register a student; 3 s after success the screen returns to a fresh form. */
export default function StudentRegPage() {
  const [registered, setRegistered] = useState<Registered | null>(null);
  const [formKey, setFormKey] = useState(0);
  return (
    <PageLayout
      title="Student Registration"
      actions={
        <>
          <ButtonLink to="/new-sign-ins" variant="secondary">
            Today&apos;s sign-in slips
          </ButtonLink>
          <ButtonLink to="/import/students" variant="secondary">
            Import from CSV
          </ButtonLink>
        </>
      }
    >
      <div className="flex flex-col gap-5">
        {registered && (
          <div className="flex flex-col gap-3" data-testid="registration-success">
            <Alert tone="success">{registered.message}</Alert>
            {registered.account && <OneTimePasswordNotice account={registered.account} kind="student" />}
          </div>
        )}
        <StudentRegForm
          key={formKey}
          onRegistered={(r) => setRegistered(r)}
          onRedirect={() => setFormKey((k) => k + 1)}
          onStart={() => setRegistered(null)}
        />
      </div>
    </PageLayout>
  );
}

function StudentRegForm({
  onRegistered,
  onRedirect,
  onStart,
}: {
  onRegistered: (r: Registered) => void;
  onRedirect: () => void;
  onStart: () => void;
}) {
  const form = useSchemaForm({ defaultValues: EMPTY, schema: studentCreateSchema, check: passwordsMatch });
  const create = useCreateStudent();
  const navigate = useNavigate();
  const [banner, setBanner] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onValid(values: typeof EMPTY) {
    const body = compact(values);
    onStart();
    try {
      const res = await create.mutateAsync({ ...body, user_type: USER_TYPE.student });
      const name = `${res.first_name} ${res.last_name}`;
      const message = studentRegistered(name, res.admission_number);
      if (res.one_time_password) rememberPasswords([{ public_id: res.admission_number, one_time_password: res.one_time_password }]);
      onRegistered({
        message,
        account: res.one_time_password
          ? {
              public_id: res.admission_number,
              first_name: res.first_name,
              last_name: res.last_name,
              email: res.email,
              group: res.student_class,
              one_time_password: res.one_time_password,
            }
          : undefined,
      });
      // Back to /StudentReg (a fresh form) after 3 seconds; the success note stays.
      timer.current = setTimeout(() => {
        navigate('/StudentReg', { replace: true });
        onRedirect();
      }, TIMINGS.registrationRedirect);
    } catch (err) {
      const fields = fieldErrorsOf(err, { leaf: true });
      if (Object.keys(fields).length) form.fail(fields);
      else setBanner((err as { detail?: string }).detail ?? PEOPLE_MESSAGES.studentCreateFailed);
    }
  }

  return (
    <Card>
      <form
        ref={form.formRef}
        onSubmit={(e) => {
          setBanner(null);
          void form.submit(onValid)(e);
        }}
        noValidate
        className="flex flex-col gap-5"
      >
        {banner && <Alert tone="error">{banner}</Alert>}
        <StudentFields field={form.field} />
        <PasswordPair field={form.field} hint="Leave blank to generate a one-time password." />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={create.isPending}>
            {create.isPending ? 'Registering...' : 'Register Student'}
          </Button>
          <ButtonLink to="/StudentInfos" variant="secondary">
            View Students
          </ButtonLink>
        </div>
      </form>
    </Card>
  );
}
