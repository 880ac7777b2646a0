import { useState } from 'react';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { DetailList } from '../../../components/ui/card';
import { useStaffList } from '../api';
import { STAFF_DETAILS, fullName, staffDetailValues } from '../components/details';
import { DisclosureRow, ExportButton } from '../components/list-tools';
import { QueryView } from '../../../components/ui/query-view';

/** What a staff member's row shows when opened. */
const PANEL_DETAILS = ['email', 'staff_id', 'gender', 'department', 'marital_status', 'phone_number'] as const;

/** /StaffDetails: Staff Members with name and designation; one expands to its details. */
export default function StaffDetailsPage() {
  const list = useStaffList();
  const [expanded, setExpanded] = useState<string | null>(null);
  return (
    <PageLayout title="Staff Members" actions={<ExportButton path="/staff/export/" filename="staff.csv" />}>
      <QueryView query={list} messages={PEOPLE_MESSAGES.staffListFailed} empty={PEOPLE_MESSAGES.noStaff}>
        {(data) => (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" aria-label="Staff members">
            {data.map((s) => (
              <DisclosureRow
                key={s.staff_id}
                rowId={s.staff_id}
                openRow={expanded}
                onOpenRow={setExpanded}
                panelId={`staff-${s.staff_id}`}
                title={fullName(s)}
                aside={s.designation}
                more={{ to: `/staff/${s.staff_id}`, label: `Profile of ${fullName(s)}` }}
              >
                <DetailList labels={STAFF_DETAILS} values={staffDetailValues(s)} only={PANEL_DETAILS} />
              </DisclosureRow>
            ))}
          </ul>
        )}
      </QueryView>
    </PageLayout>
  );
}
