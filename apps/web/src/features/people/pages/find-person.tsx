import { useState, type ReactNode } from 'react';
import { PEOPLE_MESSAGES, type StaffDetail } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { useToast } from '../../../lib/toast';
import { fetchStudent, findStaff, type PersonKind } from '../api';
import { IdSearchCard } from '../components/id-search';
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

/** The search of a find screen: the ID typed, trimmed and upper-cased when searched. */
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
    <IdSearchCard
      label={label}
      placeholder={placeholder}
      value={value}
      error={error}
      busy={busy}
      button="Search"
      onChange={setValue}
      onSearch={() => onSearch(value.trim().toUpperCase())}
    />
  );
}

/**
 * A find screen's search and what it found: "enter an ID" when blank, the success toast, the
 * failure text (findFailure) when the lookup fails.
 */
function useFindRecord<T>(find: (id: string) => Promise<T>, m: FindMessages) {
  const toast = useToast();
  const [found, setFound] = useState<T | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(id: string) {
    setError(null);
    setFieldError(undefined);
    if (!id) {
      setFieldError(m.enterId);
      return;
    }
    setBusy(true);
    try {
      setFound(await find(id));
      toast.success(m.success);
    } catch (err) {
      setFound(null);
      setError(findFailure(err, m.notFound, m.failed));
    } finally {
      setBusy(false);
    }
  }
  return { found, fieldError, error, busy, search };
}

/** The staff record as the find screen reads it: flat, and again under `data`, with profile_data. */
async function findStaffRecord(id: string): Promise<StaffDetail> {
  const res = await findStaff(id);
  return { ...res.data, data: res.data };
}

type FindMessages = { enterId: string; success: string; notFound: string; failed: string };
type Person = { first_name: string; last_name: string; email: string | null };

/**
 * A find screen: the ID search, its failure, and the person found: a card titled with their name
 * (`actions`, `details`), then the password reset when `reset` names their kind, ID and group.
 */
function FindRecordPage<T extends Person>({
  title,
  label,
  placeholder,
  find: fetchRecord,
  messages,
  actions,
  details,
  reset,
}: {
  title: string;
  label: string;
  placeholder: string;
  find: (id: string) => Promise<T>;
  messages: FindMessages;
  actions: (found: T) => ReactNode;
  details: (found: T) => ReactNode;
  reset?: (found: T) => { kind: PersonKind; publicId: string; group: string };
}) {
  const find = useFindRecord(fetchRecord, messages);
  const found = find.found;
  const account = found && reset?.(found);
  return (
    <PageLayout title={title} width="max-w-3xl">
      <div className="flex flex-col gap-4">
        <SearchForm
          label={label}
          placeholder={placeholder}
          busy={find.busy}
          error={find.fieldError}
          onSearch={(v) => void find.search(v)}
        />
        {find.error && <Alert tone="error">{find.error}</Alert>}
        {found && (
          <Card title={fullName(found)} actions={actions(found)}>
            {details(found)}
          </Card>
        )}
        {found && account && (
          <ResetPasswordAction
            key={account.publicId}
            kind={account.kind}
            publicId={account.publicId}
            person={{ first_name: found.first_name, last_name: found.last_name, email: found.email, group: account.group }}
          />
        )}
      </div>
    </PageLayout>
  );
}

/** /CheckAStudentData: find a student by admission number. */
export function FindStudentPage() {
  return (
    <FindRecordPage
      title="Find a Student"
      label="Admission number"
      placeholder="STU-0001"
      find={fetchStudent}
      messages={{
        enterId: PEOPLE_MESSAGES.enterAdmissionNumber,
        success: PEOPLE_MESSAGES.findStudentSuccess,
        notFound: PEOPLE_MESSAGES.findStudentNotFound,
        failed: PEOPLE_MESSAGES.findStudentFailed,
      }}
      actions={(student) => (
        <>
          <ButtonLink variant="secondary" to={`/UpdateStudentDetails?admission_number=${student.admission_number}`}>
            Update
          </ButtonLink>
          <ButtonLink variant="secondary" to={`/DeleteStudent/${encodeURIComponent(student.admission_number)}`}>
            Delete
          </ButtonLink>
        </>
      )}
      details={(student) => <StudentDetailList s={student} />}
      reset={(student) => ({ kind: 'student', publicId: student.admission_number, group: student.student_class })}
    />
  );
}

/** /CheckAStaffData: find a staff member by staff ID (or internal id); extra profile info when present. */
export function FindStaffPage() {
  const isAdmin = useSession()?.role === 'admin';
  return (
    <FindRecordPage
      title="Find a Staff Member"
      label="Staff ID"
      placeholder="STAFF-0001"
      find={findStaffRecord}
      messages={{
        enterId: PEOPLE_MESSAGES.enterStaffId,
        success: PEOPLE_MESSAGES.findStaffSuccess,
        notFound: PEOPLE_MESSAGES.findStaffNotFound,
        failed: PEOPLE_MESSAGES.findStaffFailed,
      }}
      actions={(staff) => (
        <ButtonLink variant="secondary" to={`/staff/${staff.staff_id}`}>
          Open profile
        </ButtonLink>
      )}
      details={(staff) => <StaffDetailList s={staff} />}
      reset={isAdmin ? (staff) => ({ kind: 'staff', publicId: staff.staff_id, group: staff.designation }) : undefined}
    />
  );
}
