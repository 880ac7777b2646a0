import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TIMINGS, USER_TYPE } from '@portal/domain/constants';
import { PEOPLE_MESSAGES, studentCreateSchema, studentRegistered, type ImportedAccount } from '@portal/domain/people';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useCreateStudent } from '../api';
import { PasswordPair, StudentFields } from '../components/person-fields';
import { OneTimePasswordNotice } from '../components/sign-in-slips';
import { newAccountSlip } from '../new-sign-ins-store';
import { PersonForm, useSaveFailure } from '../components/person-form';
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
  const { failed, frame } = useSaveFailure(form);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onValid(values: typeof EMPTY) {
    const body = compact(values);
    onStart();
    try {
      const res = await create.mutateAsync({ ...body, user_type: USER_TYPE.student });
      const message = studentRegistered(`${res.first_name} ${res.last_name}`, res.admission_number);
      onRegistered({ message, account: newAccountSlip(res, res.admission_number, res.student_class) });
      // Back to /StudentReg (a fresh form) after 3 seconds; the success note stays.
      timer.current = setTimeout(() => {
        navigate('/StudentReg', { replace: true });
        onRedirect();
      }, TIMINGS.registrationRedirect);
    } catch (err) {
      failed(err, (e) => (e as { detail?: string }).detail ?? PEOPLE_MESSAGES.studentCreateFailed);
    }
  }

  return (
    <Card>
      <PersonForm
        {...frame(onValid)}
        submit={{ label: 'Register Student', busyLabel: 'Registering...', busy: create.isPending }}
        actions={
          <ButtonLink to="/StudentInfos" variant="secondary">
            View Students
          </ButtonLink>
        }
      >
        <StudentFields field={form.field} />
        <PasswordPair field={form.field} hint="Leave blank to generate a one-time password." />
      </PersonForm>
    </Card>
  );
}
