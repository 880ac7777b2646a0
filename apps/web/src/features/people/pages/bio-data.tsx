import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { useSession } from '../../../lib/auth-store';
import { fetchLegacyStaff, fetchLegacyStudent, useLegacyDelete } from '../api';
import { genderLabel, maritalLabel } from '../components/details';

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

/** /student-BioData/:_id: the legacy student record by internal id. */
export function StudentBioDataPage() {
  const { _id: id = '' } = useParams();
  const q = useQuery({ queryKey: ['students', 'legacy', id], queryFn: () => fetchLegacyStudent(id), retry: false });
  return (
    <PageLayout title="Student Bio Data" width="max-w-2xl">
      <QueryView query={q} messages={{ notFound: PEOPLE_MESSAGES.studentNotFound, fallback: PEOPLE_MESSAGES.studentsFetchFailed }}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Card title={`${data.firstName} ${data.lastName}`}>
              <dl>
                <DetailRow label="Admission number" value={data.UserName} />
                <DetailRow label="Email" value={data.email} />
                <DetailRow label="Class" value={data.studentClass} />
                <DetailRow label="Gender" value={genderLabel(data.gender)} />
                <DetailRow label="Date of birth" value={data.dateOfBirth} />
                <DetailRow label="Father's name" value={data.fathersName} />
                <DetailRow label="Father's phone" value={data.fathersPhoneNumber} />
                <DetailRow label="Mother's name" value={data.mothersName} />
                <DetailRow label="Mother's phone" value={data.mothersPhoneNumber} />
                <DetailRow label="Home address" value={data.homeAddress} />
              </dl>
            </Card>
            <LegacyActions
              kind="student"
              id={id}
              updateTo={`/UpdateStudentDetails?admission_number=${encodeURIComponent(data.admissionNumber)}`}
              canDelete
            />
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}

/** /staff-BioData/:_id: the legacy staff record by internal id. */
export function StaffBioDataPage() {
  const { _id: id = '' } = useParams();
  const isAdmin = useSession()?.role === 'admin';
  const q = useQuery({ queryKey: ['staff', 'legacy', id], queryFn: () => fetchLegacyStaff(id), retry: false });
  return (
    <PageLayout title="Staff Bio Data" width="max-w-2xl">
      <QueryView query={q} messages={{ notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffDetailsFailed }}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Card title={`${data.firstName} ${data.lastName}`}>
              <dl>
                <DetailRow label="Staff ID" value={data.staffId} />
                <DetailRow label="Username" value={data.userName} />
                <DetailRow label="Email" value={data.email} />
                <DetailRow label="Gender" value={genderLabel(data.gender)} />
                <DetailRow label="Marital status" value={maritalLabel(data.maritalStatus)} />
                <DetailRow label="Designation" value={data.designation} />
              </dl>
            </Card>
            {isAdmin ? (
              <LegacyActions kind="staff" id={id} updateTo={`/staff/${data.staffId}/edit`} canDelete />
            ) : (
              <Link to="/StaffDetails" className="text-sm font-medium text-brand-800 hover:underline">
                Back to Staff Members
              </Link>
            )}
          </div>
        )}
      </QueryView>
    </PageLayout>
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
