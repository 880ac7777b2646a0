import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/auth-store';
import { useToast } from '../../../lib/toast';
import { useStaffList } from '../api';
import { fullName } from '../components/details';
import { ExportButton } from '../components/list-tools';
import { ScreenLayout } from '../components/screen-layout';
import { OneTimePasswordNotice } from '../components/sign-in-slips';
import { takeCreatedFlash, type CreatedFlash } from '../flash';
import { useStaffBase } from '../staff-base';
import { QueryView } from '../../../components/ui/query-view';

/** /staff and /dashboard/staff: the staff list, linking to each profile. */
export default function StaffListPage() {
  const list = useStaffList();
  const base = useStaffBase();
  const isAdmin = useSession()?.role === 'admin';
  const toast = useToast();
  const [q, setQ] = useState('');
  const [created] = useState<CreatedFlash | null>(() => takeCreatedFlash());
  const announced = useRef(false);

  useEffect(() => {
    // A loaded list speaks for itself: no "Staff list loaded successfully" toast.
    if (list.isError && !announced.current) {
      announced.current = true;
      toast.error(PEOPLE_MESSAGES.staffListFailed);
    }
  }, [list.isError, toast]);

  const needle = q.trim().toLowerCase();
  const rows = (list.data ?? []).filter(
    (s) => !needle || `${s.first_name} ${s.last_name} ${s.staff_id} ${s.designation} ${s.department}`.toLowerCase().includes(needle),
  );

  const body = (
    <div className="flex flex-col gap-4">
      {created && (
        <div className="flex flex-col gap-3">
          <Alert tone="success">{created.message}</Alert>
          {created.account && <OneTimePasswordNotice account={created.account} kind="staff" />}
        </div>
      )}
      <TextField label="Search staff" type="search" value={q} onChange={(e) => setQ(e.target.value)} className="no-print" />
      <QueryView query={list} messages={PEOPLE_MESSAGES.staffListFailed} empty={PEOPLE_MESSAGES.noStaff} isEmpty={() => rows.length === 0}>
        {() => (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" aria-label="Staff list">
            {rows.map((s) => (
              <li key={s.staff_id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div>
                  <Link to={`${base}/${s.staff_id}`} className="font-medium text-brand-900 hover:underline">
                    {fullName(s)}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {s.designation} · {s.department}
                  </p>
                </div>
                <span className="font-mono text-sm text-slate-700">{s.staff_id}</span>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </div>
  );

  const actions = (
    <>
      {isAdmin && (
        <>
          <ButtonLink to={`${base}/create`}>Add Staff</ButtonLink>
          <ButtonLink to="/import/staff" variant="secondary">
            Import CSV
          </ButtonLink>
        </>
      )}
      <ExportButton path="/staff/export/" filename="staff.csv" />
    </>
  );

  return (
    <ScreenLayout title="Staff List" actions={actions}>
      {body}
    </ScreenLayout>
  );
}
