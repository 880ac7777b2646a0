import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  FIELD_LABELS,
  PEOPLE_MESSAGES,
  admissionNumberSchema,
  studentNotFoundNumber,
  studentUpdateSchema,
  studentUpdated,
  type StudentRecord,
} from '@portal/domain/people';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { fetchStudent, useUpdateStudent } from '../api';
import { errorMessage } from '../../../lib/errors';
import { PersonForm, useSaveFailure } from '../components/person-form';
import { PasswordPair, StudentFields } from '../components/person-fields';
import { StudentPhotoSection } from '../components/student-photo';
import { RecordLookup, UpdatedCard } from '../components/record-lookup';
import { useSchemaForm } from '../../../lib/schema-form';
import { STUDENT_FORM_EMPTY } from '../student-form';
import { personFieldsOf } from '../person-fields';

const EMPTY = STUDENT_FORM_EMPTY;

/** The update body: every field as it stands; a blank password is left out, so the current one is kept. */
function updateBody(values: typeof EMPTY): Record<string, string> {
  const { password, confirm_password, ...rest } = values;
  const body: Record<string, string> = { ...rest };
  if (password) Object.assign(body, { password, confirm_password });
  return body;
}

function valuesOf(s: StudentRecord): typeof EMPTY {
  return {
    ...personFieldsOf(s),
    date_of_birth: s.date_of_birth ?? '',
    student_class: s.student_class,
    fathers_name: s.fathers_name,
    fathers_phone: s.fathers_phone,
    mothers_name: s.mothers_name,
    mothers_phone: s.mothers_phone,
    home_address: s.home_address,
    password: '',
    confirm_password: '',
  };
}

/** /UpdateStudentDetails: details load when the admission number field loses focus. */
export default function UpdateStudentPage() {
  const [params] = useSearchParams();
  const [admission, setAdmission] = useState(params.get('admission_number')?.toUpperCase() ?? '');
  const [admissionError, setAdmissionError] = useState<string | undefined>();
  const [loaded, setLoaded] = useState<StudentRecord | null>(null);
  const [loading, setLoading] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const form = useSchemaForm({ defaultValues: EMPTY, schema: studentUpdateSchema, toBody: updateBody });
  const { banner, setBanner, failed } = useSaveFailure(form);
  const { setValues } = form;
  const update = useUpdateStudent();
  const lastLoaded = useRef<string | null>(null);

  const load = useCallback(
    async (value: string) => {
      const parsed = admissionNumberSchema.safeParse(value);
      if (!parsed.success) {
        setAdmissionError(parsed.error.issues[0]?.message);
        return;
      }
      if (lastLoaded.current === parsed.data) return;
      setBanner(null);
      setLoading(true);
      try {
        const s = await fetchStudent(parsed.data);
        lastLoaded.current = parsed.data;
        setLoaded(s);
        setValues(valuesOf(s));
      } catch (err) {
        lastLoaded.current = null;
        setLoaded(null);
        setBanner(
          errorMessage(err, {
            notFound: studentNotFoundNumber(parsed.data),
            fallback: PEOPLE_MESSAGES.fetchStudentFailed,
          }),
        );
      } finally {
        setLoading(false);
      }
    },
    [setValues, setBanner],
  );

  // Opened from a student's page (?admission_number=...): load straight away.
  const initial = useRef(admission);
  useEffect(() => {
    if (initial.current) void load(initial.current);
  }, [load]);

  const mismatch = form.values.password !== '' && form.values.password !== form.values.confirm_password;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!loaded) return;
    setBanner(null);
    void form.submit((values) => save(loaded, values))(e);
  }

  async function save(loaded: StudentRecord, values: typeof EMPTY) {
    const body = updateBody(values);
    try {
      const s = await update.mutateAsync({
        id: loaded.admission_number,
        body: { ...body, date_of_birth: body.date_of_birth?.slice(0, 10) },
      });
      const message = studentUpdated(`${s.first_name} ${s.last_name}`, s.admission_number);
      setSuccess(message);
    } catch (err) {
      const fields = failed(err, (e) =>
        errorMessage(e, { notFound: studentNotFoundNumber(loaded.admission_number), fallback: PEOPLE_MESSAGES.updateStudentFailed }),
      );
      // The fields' messages also stand in the banner, each under its field's label.
      if (Object.keys(fields).length)
        setBanner(
          Object.entries(fields)
            .map(([k, msgs]) => msgs.map((m) => `${FIELD_LABELS[k] ?? k}: ${m}`).join('\n'))
            .join('\n'),
        );
    }
  }

  if (success) {
    return (
      <UpdatedCard
        title="Update Student Details"
        message={success}
        again="Update another student"
        onAgain={() => {
          setSuccess(null);
          setLoaded(null);
          setAdmission('');
          lastLoaded.current = null;
          setValues(EMPTY);
        }}
      />
    );
  }

  return (
    <PageLayout title="Update Student Details" width="max-w-3xl">
      <Card>
        <PersonForm
          formRef={form.formRef}
          onSubmit={onSubmit}
          banner={banner}
          submit={loaded ? { label: 'Update Student', busyLabel: 'Updating...', busy: update.isPending, disabled: mismatch } : undefined}
        >
          <RecordLookup
            label={FIELD_LABELS.admission_number}
            value={admission}
            placeholder="STU-0001"
            hint="The details load when you leave this field."
            error={admissionError}
            loading={loading}
            loadingLabel="Loading student..."
            onChange={(value) => {
              setAdmission(value);
              setAdmissionError(undefined);
            }}
            onLoad={(value) => void load(value)}
          />
          {loaded && (
            <>
              <StudentFields field={form.field} required="update" />
              <PasswordPair field={form.field} hint="Leave blank to keep the current password." />
              {mismatch && form.values.confirm_password !== '' && (
                <p className="text-sm text-red-700" role="alert">
                  {PEOPLE_MESSAGES.passwordsDoNotMatch}
                </p>
              )}
            </>
          )}
        </PersonForm>
      </Card>
      {loaded && (
        <div className="mt-5">
          <StudentPhotoSection key={loaded.admission_number} admissionNumber={loaded.admission_number} current={loaded.photo} />
        </div>
      )}
    </PageLayout>
  );
}
