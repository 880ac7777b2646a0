import { Link, useParams } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { useSession } from '../../../lib/auth-store';
import { useStaffMember } from '../api';
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
      <QueryView query={q} messages={{ notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffDetailsFailed }}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Card title={fullName(data)}>
              <StaffDetailList s={data} />
            </Card>
            {isAdmin && (
              <ResetPasswordAction
                kind="staff"
                publicId={data.staff_id}
                person={{ first_name: data.first_name, last_name: data.last_name, email: data.email, group: data.designation }}
              />
            )}
          </div>
        )}
      </QueryView>
    </ScreenLayout>
  );
}
