import { useEffect, useState } from 'react';
import {
  BURSARY_MESSAGES,
  BURSARY_SCREENS,
  STAFF_CAPABILITIES,
  STAFF_CAPABILITY_DESCRIPTIONS,
  STAFF_CAPABILITY_LABELS,
  type StaffCapabilities,
  type StaffCapability,
} from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSaveCapabilities, useStaffCapabilities } from '../api';

/** One staff member: a switch per capability, saved as soon as it is flipped. */
function StaffRow({ staff }: { staff: StaffCapabilities }) {
  const save = useSaveCapabilities();
  const toast = useToast();
  const [error, setError] = useState('');
  // The switch moves at once; a refused save puts it back to what is stored.
  const [shown, setShown] = useState(staff.capabilities);
  useEffect(() => setShown(staff.capabilities), [staff.capabilities]);
  function toggle(capability: StaffCapability, on: boolean) {
    setError('');
    const capabilities = on ? [...shown, capability] : shown.filter((c) => c !== capability);
    setShown(capabilities);
    save.mutate(
      { staffId: staff.staff_id, capabilities },
      {
        onSuccess: () => toast.success(BURSARY_MESSAGES.capabilitiesSaved),
        onError: (err) => {
          setShown(staff.capabilities);
          setError(errorMessage(err, { fallback: M.capabilitiesSaveFailed, useDetail: true }));
        },
      },
    );
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="capability-row" data-staff-id={staff.staff_id}>
      <div className="min-w-0">
        <p className="font-semibold">{staff.name}</p>
        <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">
          {staff.staff_id} · {staff.email}
        </p>
        {error && (
          <p className="text-sm text-red-700" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-4">
        {STAFF_CAPABILITIES.map((c) => (
          <label key={c} className="inline-flex min-h-11 items-center gap-2 text-sm font-medium" title={STAFF_CAPABILITY_DESCRIPTIONS[c]}>
            <input
              type="checkbox"
              role="switch"
              className="h-5 w-5 accent-brand-800"
              checked={shown.includes(c)}
              disabled={save.isPending}
              aria-label={`${STAFF_CAPABILITY_LABELS[c]}: ${staff.name}`}
              onChange={(e) => toggle(c, e.target.checked)}
            />
            {STAFF_CAPABILITY_LABELS[c]}
          </label>
        ))}
      </div>
    </li>
  );
}

/** /staff-capabilities (admin): every staff member with a Bursar switch, saved per row. */
export default function StaffCapabilitiesPage() {
  const staff = useStaffCapabilities();
  return (
    <PageLayout title={BURSARY_SCREENS.capabilities.title}>
      <Card>
        <p className="mb-2 text-sm text-slate-700">
          {STAFF_CAPABILITIES.map((c) => `${STAFF_CAPABILITY_LABELS[c]}: ${STAFF_CAPABILITY_DESCRIPTIONS[c]}.`).join(' ')}
        </p>
        <QueryView query={staff} messages={{ fallback: M.capabilitiesFailed }} empty={M.noStaff}>
          {(list) => (
            <ul className="divide-y divide-slate-100" aria-label={L.staffMember}>
              {list.map((s) => (
                <StaffRow key={s.staff_id} staff={s} />
              ))}
            </ul>
          )}
        </QueryView>
      </Card>
    </PageLayout>
  );
}
