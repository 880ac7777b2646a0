import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { PEOPLE_MESSAGES, type LegacyStaff, type LegacyStudent } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, DetailList } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { useSession } from '../../../lib/auth-store';
import type { ErrorMessages } from '../../../lib/errors';
import { fetchLegacyStaff, fetchLegacyStudent, useLegacyDelete } from '../api';
import {
  STAFF_DETAILS,
  STUDENT_DETAILS,
  genderLabel,
  maritalLabel,
  type StaffDetailValues,
  type StudentDetailValues,
} from '../components/details';

/** The legacy records' camelCase fields under the details' names (the admission number is `UserName`). */
const legacyStudentValues = (d: LegacyStudent): StudentDetailValues => ({
  admission_number: d.UserName,
  email: d.email,
  class_name: d.arm,
  gender: genderLabel(d.gender),
  date_of_birth: d.dateOfBirth,
  fathers_name: d.fathersName,
  fathers_phone: d.fathersPhoneNumber,
  mothers_name: d.mothersName,
  mothers_phone: d.mothersPhoneNumber,
  home_address: d.homeAddress,
});
const LEGACY_STUDENT_DETAILS = [
  'admission_number',
  'email',
  'class_name',
  'gender',
  'date_of_birth',
  'fathers_name',
  'fathers_phone',
  'mothers_name',
  'mothers_phone',
  'home_address',
] as const;

const legacyStaffValues = (d: LegacyStaff): StaffDetailValues => ({
  staff_id: d.staffId,
  username: d.userName,
  email: d.email,
  gender: genderLabel(d.gender),
  marital_status: maritalLabel(d.maritalStatus),
  designation: d.designation,
});
const LEGACY_STAFF_DETAILS = ['staff_id', 'username', 'email', 'gender', 'marital_status', 'designation'] as const;

/** Update / Delete / Back of the legacy detail screens; Delete asks once more, then goes to /Delete-message. */
function LegacyActions({ kind, id, updateTo, canDelete }: { kind: 'student' | 'staff'; id: string; updateTo: string; canDelete: boolean }) {
  const navigate = useNavigate();
  const remove = useLegacyDelete();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="no-print flex flex-col gap-3">
      {error && <Alert tone="error">{error}</Alert>}
      {confirming ? (
        <Alert tone="error" title="Delete this record permanently?">
          <p>{kind === 'student' ? `${PEOPLE_MESSAGES.deletePermanent} ${PEOPLE_MESSAGES.deleteAlsoRemoves}` : 'This cannot be undone.'}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button
              variant="danger"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(
                  { kind, id },
                  {
                    onSuccess: () => void navigate('/Delete-message', { replace: true }),
                    onError: () => {
                      setConfirming(false);
                      setError(PEOPLE_MESSAGES.legacyDeleteFailed);
                    },
                  },
                )
              }
            >
              Yes, delete permanently
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </Alert>
      ) : (
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={updateTo}>Update</ButtonLink>
          {canDelete && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          )}
          <Button variant="secondary" onClick={() => navigate(-1)}>
            Back
          </Button>
        </div>
      )}
    </div>
  );
}

/** The legacy detail screens' frame: the record by internal id, its name over its details, then the actions. */
function LegacyRecordPage<T extends { firstName: string; lastName: string }>({
  title,
  queryKey,
  fetch,
  messages,
  details,
  actions,
}: {
  title: string;
  queryKey: 'students' | 'staff';
  fetch: (id: string) => Promise<T>;
  messages: ErrorMessages;
  details: (data: T) => ReactNode;
  actions: (data: T, id: string) => ReactNode;
}) {
  const { _id: id = '' } = useParams();
  const q = useQuery({ queryKey: [queryKey, 'legacy', id], queryFn: () => fetch(id), retry: false });
  return (
    <PageLayout title={title} width="max-w-2xl">
      <QueryView query={q} messages={messages}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Card title={`${data.firstName} ${data.lastName}`}>{details(data)}</Card>
            {actions(data, id)}
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}

/** /student-BioData/:_id: the legacy student record by internal id. */
export function StudentBioDataPage() {
  return (
    <LegacyRecordPage
      title="Student Bio Data"
      queryKey="students"
      fetch={fetchLegacyStudent}
      messages={{ notFound: PEOPLE_MESSAGES.studentNotFound, fallback: PEOPLE_MESSAGES.studentsFetchFailed }}
      details={(data) => <DetailList labels={STUDENT_DETAILS} values={legacyStudentValues(data)} only={LEGACY_STUDENT_DETAILS} />}
      actions={(data, id) => (
        <LegacyActions
          kind="student"
          id={id}
          updateTo={`/UpdateStudentDetails?admission_number=${encodeURIComponent(data.admissionNumber)}`}
          canDelete
        />
      )}
    />
  );
}

/** /staff-BioData/:_id: the legacy staff record by internal id. */
export function StaffBioDataPage() {
  const isAdmin = useSession()?.role === 'admin';
  return (
    <LegacyRecordPage
      title="Staff Bio Data"
      queryKey="staff"
      fetch={fetchLegacyStaff}
      messages={{ notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffDetailsFailed }}
      details={(data) => <DetailList labels={STAFF_DETAILS} values={legacyStaffValues(data)} only={LEGACY_STAFF_DETAILS} />}
      actions={(data, id) =>
        isAdmin ? (
          <LegacyActions kind="staff" id={id} updateTo={`/staff/${data.staffId}/edit`} canDelete />
        ) : (
          <Link to="/StaffDetails" className="text-sm font-medium text-brand-800 hover:underline">
            Back to Staff Members
          </Link>
        )
      }
    />
  );
}

/** /Delete-message. */
export function DeleteMessagePage() {
  const session = useSession();
  return (
    <PageLayout title="Deleted" width="max-w-xl">
      <Alert tone="success">
        <p className="text-lg font-semibold">{PEOPLE_MESSAGES.deletedSuccessfully}</p>
      </Alert>
      <div className="mt-4 flex flex-wrap gap-2">
        <ButtonLink to="/StudentInfos" variant="secondary">
          Students
        </ButtonLink>
        {session && (
          <ButtonLink to="/StaffDetails" variant="secondary">
            Staff
          </ButtonLink>
        )}
      </div>
    </PageLayout>
  );
}
