import { useState, type FormEvent } from 'react';
import { PEOPLE_MESSAGES, type StaffDetail, type StudentRecord } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { useToast } from '../../../lib/toast';
import { fetchStudent, findStaff } from '../api';
import { ResetPasswordAction, StaffDetailList, StudentDetailList, fullName } from '../components/details';

/** The find screens' failure text: not found (404 or a malformed ID), server detail, no response, default. */
function findFailure(err: unknown, notFound: string, fallback: string): string {
  if (err instanceof ApiError) {
    if (err.kind !== 'http') return PEOPLE_MESSAGES.noResponse;
    // A malformed ID is refused with 400 before any lookup: it names no one either.
    if (err.status === 404 || err.status === 400) return notFound;
    if (err.status === 401) return PEOPLE_MESSAGES.unauthorized;
    return err.detail ?? fallback;
  }
  return fallback;
}

function SearchForm({
  label,
  placeholder,
  busy,
  error,
  onSearch,
}: {
  label: string;
  placeholder: string;
  busy: boolean;
  error?: string;
  onSearch: (v: string) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <Card>
      <form
        className="flex flex-wrap items-end gap-3"
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onSearch(value.trim().toUpperCase());
        }}
      >
        <div className="min-w-56 flex-1">
          <TextField
            label={label}
            placeholder={placeholder}
            autoComplete="off"
            value={value}
            error={error}
            onChange={(e) => setValue(e.target.value.toUpperCase())}
          />
        </div>
        <Button type="submit" loading={busy}>
          Search
        </Button>
      </form>
    </Card>
  );
}

/** /CheckAStudentData: find a student by admission number. */
export function FindStudentPage() {
  const toast = useToast();
  const [student, setStudent] = useState<StudentRecord | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(adm: string) {
    setError(null);
    setFieldError(undefined);
    if (!adm) {
      setFieldError(PEOPLE_MESSAGES.enterAdmissionNumber);
      return;
    }
    setBusy(true);
    try {
      const s = await fetchStudent(adm);
      setStudent(s);
      toast.success(PEOPLE_MESSAGES.findStudentSuccess);
    } catch (err) {
      setStudent(null);
      setError(findFailure(err, PEOPLE_MESSAGES.findStudentNotFound, PEOPLE_MESSAGES.findStudentFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageLayout title="Find a Student" width="max-w-3xl">
      <div className="flex flex-col gap-4">
        <SearchForm label="Admission number" placeholder="STU-0001" busy={busy} error={fieldError} onSearch={(v) => void search(v)} />
        {error && <Alert tone="error">{error}</Alert>}
        {student && (
          <>
            <Card
              title={fullName(student)}
              actions={
                <>
                  <ButtonLink variant="secondary" to={`/UpdateStudentDetails?admission_number=${student.admission_number}`}>
                    Update
                  </ButtonLink>
                  <ButtonLink variant="secondary" to={`/DeleteStudent/${encodeURIComponent(student.admission_number)}`}>
                    Delete
                  </ButtonLink>
                </>
              }
            >
              <StudentDetailList s={student} />
            </Card>
            <ResetPasswordAction
              key={student.admission_number}
              kind="student"
              publicId={student.admission_number}
              person={{ first_name: student.first_name, last_name: student.last_name, email: student.email, group: student.student_class }}
            />
          </>
        )}
      </div>
    </PageLayout>
  );
}

/** /CheckAStaffData: find a staff member by staff ID (or internal id); extra profile info when present. */
export function FindStaffPage() {
  const toast = useToast();
  const isAdmin = useSession()?.role === 'admin';
  const [staff, setStaff] = useState<StaffDetail | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(id: string) {
    setError(null);
    setFieldError(undefined);
    if (!id) {
      setFieldError(PEOPLE_MESSAGES.enterStaffId);
      return;
    }
    setBusy(true);
    try {
      const res = await findStaff(id);
      // The spec's screen reads the record under `data`, with profile_data.
      setStaff({ ...res.data, data: res.data });
      toast.success(PEOPLE_MESSAGES.findStaffSuccess);
    } catch (err) {
      setStaff(null);
      setError(findFailure(err, PEOPLE_MESSAGES.findStaffNotFound, PEOPLE_MESSAGES.findStaffFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageLayout title="Find a Staff Member" width="max-w-3xl">
      <div className="flex flex-col gap-4">
        <SearchForm label="Staff ID" placeholder="STAFF-0001" busy={busy} error={fieldError} onSearch={(v) => void search(v)} />
        {error && <Alert tone="error">{error}</Alert>}
        {staff && (
          <Card
            title={fullName(staff)}
            actions={
              <ButtonLink variant="secondary" to={`/staff/${staff.staff_id}`}>
                Open profile
              </ButtonLink>
            }
          >
            <StaffDetailList s={staff} />
          </Card>
        )}
        {staff && isAdmin && (
          <ResetPasswordAction
            key={staff.staff_id}
            kind="staff"
            publicId={staff.staff_id}
            person={{ first_name: staff.first_name, last_name: staff.last_name, email: staff.email, group: staff.designation }}
          />
        )}
      </div>
    </PageLayout>
  );
}
