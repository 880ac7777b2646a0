import { useState } from 'react';
import { Link } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { DetailRow } from '../../../components/ui/card';
import { useStaffList } from '../api';
import { fullName, genderLabel, maritalLabel } from '../components/details';
import { ExportButton } from '../components/list-tools';
import { QueryView } from '../../../components/ui/query-view';

/** /StaffDetails: Staff Members with name and designation; one expands to its details. */
export default function StaffDetailsPage() {
  const list = useStaffList();
  const [expanded, setExpanded] = useState<string | null>(null);
  return (
    <PageLayout title="Staff Members" actions={<ExportButton path="/staff/export/" filename="staff.csv" />}>
      <QueryView
        query={list}
        messages={PEOPLE_MESSAGES.staffListFailed}
        empty={PEOPLE_MESSAGES.noStaff}
        isEmpty={(data) => data.length === 0}
      >
        {(data) => (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" aria-label="Staff members">
            {data.map((s) => {
              const open = expanded === s.staff_id;
              const panel = `staff-${s.staff_id}`;
              return (
                <li key={s.staff_id}>
                  <button
                    type="button"
                    className="flex min-h-12 w-full items-center justify-between gap-3 px-4 py-2 text-left hover:bg-brand-50"
                    aria-expanded={open}
                    aria-controls={panel}
                    onClick={() => setExpanded(open ? null : s.staff_id)}
                  >
                    <span className="font-medium text-slate-900">{fullName(s)}</span>
                    <span className="text-sm text-slate-600">{s.designation}</span>
                  </button>
                  {open && (
                    <div id={panel} className="bg-slate-50 px-4 pt-1 pb-3">
                      <dl>
                        <DetailRow label="Email" value={s.email} />
                        <DetailRow label="Staff ID" value={s.staff_id} />
                        <DetailRow label="Gender" value={genderLabel(s.gender)} />
                        <DetailRow label="Department" value={s.department} />
                        <DetailRow label="Marital status" value={maritalLabel(s.marital_status)} />
                        <DetailRow label="Phone" value={s.phone_number} />
                      </dl>
                      <Link to={`/staff/${s.staff_id}`} className="mt-2 inline-block text-sm font-medium text-brand-800 hover:underline">
                        Profile of {fullName(s)}
                      </Link>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryView>
    </PageLayout>
  );
}
