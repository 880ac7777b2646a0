import { useState } from 'react';
import { PEOPLE_MESSAGES, staffDeleted, type StaffDetail } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { fetchStaff, useDeleteStaff } from '../api';
import { errorMessage } from '../../../lib/errors';
import { fullName } from '../components/details';
import { IdSearchCard } from '../components/id-search';

/** /DeleteStaff: enter a staff ID, confirm, delete (admin). */
export default function DeleteStaffPage() {
  const [id, setId] = useState('');
  const [target, setTarget] = useState<StaffDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const remove = useDeleteStaff();

  async function check() {
    setError(null);
    setSuccess(null);
    const staffId = id.trim().toUpperCase();
    if (!staffId) {
      setError(PEOPLE_MESSAGES.enterStaffIdToDelete);
      return;
    }
    setChecking(true);
    try {
      setTarget(await fetchStaff(staffId));
    } catch (err) {
      setTarget(null);
      setError(errorMessage(err, { fallback: PEOPLE_MESSAGES.deleteStaffFailed, useDetail: true }));
    } finally {
      setChecking(false);
    }
  }

  async function confirm() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.staff_id);
      const message = staffDeleted(target.staff_id);
      setSuccess(message);
      setTarget(null);
      setId('');
    } catch (err) {
      setError(errorMessage(err, { fallback: PEOPLE_MESSAGES.deleteStaffFailed, useDetail: true }));
    }
  }

  return (
    <PageLayout title="Delete Staff" width="max-w-2xl">
      <div className="flex flex-col gap-4">
        {success && <Alert tone="success">{success}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        <IdSearchCard
          label="Staff ID"
          placeholder="STAFF-0001"
          value={id}
          busy={checking}
          button="Delete Staff"
          variant="danger"
          onChange={(value) => {
            setId(value);
            setTarget(null);
          }}
          onSearch={() => void check()}
        />
        {target && (
          <Alert tone="error" title={`Delete ${fullName(target)} (${target.staff_id}), ${target.designation}?`}>
            <p>This removes their account and sign-in for good. It cannot be undone.</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="danger" loading={remove.isPending} onClick={() => void confirm()}>
                Yes, delete permanently
              </Button>
              <Button variant="secondary" onClick={() => setTarget(null)} disabled={remove.isPending}>
                Cancel
              </Button>
            </div>
          </Alert>
        )}
      </div>
    </PageLayout>
  );
}
