import { Link, useParams } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/auth-store';
import { useStaffMember } from '../api';
import { errorMessage } from '../../../lib/errors';
import { ResetPasswordAction, StaffDetailList, fullName } from '../components/details';
import { ScreenLayout } from '../components/screen-layout';
import { useStaffBase } from '../staff-base';

/** /staff/:staff_id (also under /dashboard): a staff member's profile with an Edit Profile link (admin). */
export default function StaffProfilePage() {
  const { staff_id: staffId = '' } = useParams();
  const base = useStaffBase();
  const isAdmin = useSession()?.role === 'admin';
  const q = useStaffMember(staffId);
  return (
    <ScreenLayout
      title="Staff Profile"
      width="max-w-3xl"
      actions={
        isAdmin && q.data ? (
          <ButtonLink to={`${base}/${q.data.staff_id}/edit`} variant="secondary">
            Edit Profile
          </ButtonLink>
        ) : undefined
      }
    >
      <Link to={base} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← Back to List
      </Link>
      {q.isPending ? (
        <LoadingBlock />
      ) : q.isError ? (
        <Alert tone="error">
          {errorMessage(q.error, { notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffDetailsFailed })}
        </Alert>
      ) : (
        <div className="flex flex-col gap-4">
          <Card title={fullName(q.data)}>
            <StaffDetailList s={q.data} />
          </Card>
          {isAdmin && (
            <ResetPasswordAction
              kind="staff"
              publicId={q.data.staff_id}
              person={{ first_name: q.data.first_name, last_name: q.data.last_name, email: q.data.email, group: q.data.designation }}
            />
          )}
        </div>
      )}
    </ScreenLayout>
  );
}
