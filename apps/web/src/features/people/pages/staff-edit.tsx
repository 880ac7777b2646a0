import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PEOPLE_MESSAGES, staffUpdateSchema } from '@portal/domain/people';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { useToast } from '../../../lib/toast';
import { useStaffMember, useUpdateStaff } from '../api';
import { errorMessage } from '../../../lib/errors';
import { StaffFields } from '../components/person-fields';
import { PersonForm, useSaveFailure } from '../components/person-form';
import { ScreenLayout } from '../components/screen-layout';
import { useStaffBase } from '../staff-base';
import { STAFF_EDIT_EMPTY, leafField, staffEditBody, staffValuesOf } from '../staff-form';
import { useSchemaForm } from '../../../lib/schema-form';

const REQUIRED = {
  first_name: PEOPLE_MESSAGES.firstNameRequired,
  last_name: PEOPLE_MESSAGES.lastNameRequired,
  email: PEOPLE_MESSAGES.emailRequired,
  designation: PEOPLE_MESSAGES.designationRequired,
  department: PEOPLE_MESSAGES.departmentRequired,
} as const;

/** The required fields left blank, each with its own message (before the schema's words for the same field). */
function requiredOf(values: typeof STAFF_EDIT_EMPTY): Record<string, string[]> {
  const errs: Record<string, string[]> = {};
  for (const [k, msg] of Object.entries(REQUIRED)) if (!values[k as keyof typeof REQUIRED].trim()) errs[k] = [msg];
  return errs;
}

/** /staff/:staff_id/edit (also under /dashboard): edit form; success goes to the staff detail. */
export default function StaffEditPage() {
  const { staff_id: staffId = '' } = useParams();
  const base = useStaffBase();
  const q = useStaffMember(staffId);
  const form = useSchemaForm({
    defaultValues: STAFF_EDIT_EMPTY,
    schema: staffUpdateSchema,
    toBody: staffEditBody,
    fieldOf: leafField,
    check: requiredOf,
  });
  const { setValues } = form;
  const update = useUpdateStaff();
  const toast = useToast();
  const navigate = useNavigate();
  const { failed, frame } = useSaveFailure(form);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (q.data && !ready) {
      setValues(staffValuesOf(q.data));
      setReady(true);
    }
  }, [q.data, ready, setValues]);

  async function onValid(values: typeof STAFF_EDIT_EMPTY) {
    const body = staffEditBody(values);
    try {
      await update.mutateAsync({ id: staffId, body });
      toast.success(PEOPLE_MESSAGES.staffEditSuccess);
      navigate(`${base}/${staffId}`);
    } catch (err) {
      failed(err, (e) => errorMessage(e, { fallback: PEOPLE_MESSAGES.staffEditFailed }));
    }
  }

  return (
    <ScreenLayout title="Edit Staff" width="max-w-3xl">
      <Link to={`${base}/${staffId}`} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← Back to profile
      </Link>
      <QueryView query={q} messages={{ notFound: PEOPLE_MESSAGES.staffNotFound, fallback: PEOPLE_MESSAGES.staffEditLoadFailed }}>
        {(data) => (
          <Card title={`${data.first_name} ${data.last_name} (${data.staff_id})`}>
            <PersonForm
              {...frame(onValid)}
              submit={{ label: 'Save Changes', busyLabel: 'Saving...', busy: update.isPending }}
              actions={
                <ButtonLink to={`${base}/${staffId}`} variant="secondary">
                  Cancel
                </ButtonLink>
              }
            >
              <StaffFields field={form.field} mode="edit" />
            </PersonForm>
          </Card>
        )}
      </QueryView>
    </ScreenLayout>
  );
}
