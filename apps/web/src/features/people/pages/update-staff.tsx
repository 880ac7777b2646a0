import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { FIELD_LABELS, PEOPLE_MESSAGES, staffIdSchema, staffUpdateSchema, staffUpdated } from '@portal/domain/people';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { fetchStaff, useUpdateStaff } from '../api';
import { errorMessage } from '../../../lib/errors';
import { PersonForm, useSaveFailure } from '../components/person-form';
import { StaffFields } from '../components/person-fields';
import { RecordLookup, UpdatedCard } from '../components/record-lookup';
import { useSchemaForm } from '../../../lib/schema-form';
import { STAFF_EDIT_EMPTY, leafField, staffBody, staffValuesOf } from '../staff-form';

/** /UpdateStaffDetails: update a staff member by staff ID; fields left blank stay as they are. */
export default function UpdateStaffPage() {
  const [params] = useSearchParams();
  const [staffId, setStaffId] = useState(params.get('staff_id')?.toUpperCase() ?? '');
  const [idError, setIdError] = useState<string | undefined>();
  const [loadedId, setLoadedId] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const form = useSchemaForm({ defaultValues: STAFF_EDIT_EMPTY, schema: staffUpdateSchema, toBody: staffBody, fieldOf: leafField });
  const { banner, setBanner, failed } = useSaveFailure(form);
  const update = useUpdateStaff();

  async function load(value: string) {
    const parsed = staffIdSchema.safeParse(value);
    if (!parsed.success) {
      setIdError(parsed.error.issues[0]?.message);
      return;
    }
    if (parsed.data === loadedId) return;
    setBanner(null);
    setLoading(true);
    try {
      const s = await fetchStaff(parsed.data);
      setLoadedId(s.staff_id);
      form.setValues(staffValuesOf(s));
    } catch (err) {
      setLoadedId(null);
      setBanner(
        errorMessage(err, { notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffEditLoadFailed, useDetail: true }),
      );
    } finally {
      setLoading(false);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsedId = staffIdSchema.safeParse(staffId);
    if (!parsedId.success) {
      setIdError(parsedId.error.issues[0]?.message);
      return;
    }
    setBanner(null);
    void form.submit((values) => save(parsedId.data, values))(e);
  }

  async function save(id: string, values: typeof STAFF_EDIT_EMPTY) {
    const body = staffBody(values);
    try {
      const s = await update.mutateAsync({ id, body });
      const message = staffUpdated(`${s.first_name} ${s.last_name}`, s.staff_id);
      setSuccess(message);
    } catch (err) {
      failed(err, (e) => errorMessage(e, { fallback: PEOPLE_MESSAGES.updateStaffFailed, useDetail: true }));
    }
  }

  if (success) {
    return (
      <UpdatedCard
        title="Update Staff Details"
        message={success}
        again="Update another staff member"
        onAgain={() => {
          setSuccess(null);
          setLoadedId(null);
          setStaffId('');
          form.setValues(STAFF_EDIT_EMPTY);
        }}
      />
    );
  }

  return (
    <PageLayout title="Update Staff Details" width="max-w-3xl">
      <Card>
        <PersonForm
          formRef={form.formRef}
          onSubmit={onSubmit}
          banner={banner}
          submit={{ label: 'Update Staff', busyLabel: 'Updating...', busy: update.isPending }}
        >
          <RecordLookup
            label={FIELD_LABELS.staff_id}
            value={staffId}
            placeholder="STAFF-0001"
            hint="The current details load when you leave this field; fields left blank are not changed."
            error={idError}
            loading={loading}
            loadingLabel="Loading staff member..."
            onChange={(value) => {
              setStaffId(value);
              setIdError(undefined);
            }}
            onLoad={(value) => void load(value)}
          />
          <StaffFields field={form.field} mode="update" />
        </PersonForm>
      </Card>
    </PageLayout>
  );
}
