import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  formatNigerianPhone,
  PARENT_LINK_SOURCE_LABELS,
  PARENT_RELATIONSHIP_LABELS,
  PARENT_RELATIONSHIP_OPTIONS,
  parentLinkSchema,
  type ParentChildLink,
} from '@portal/domain/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREEN_MESSAGES as M, PARENT_SCREENS } from '@portal/domain/parent-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, SubmitButton } from '../../../components/ui/button';
import { Card, DetailRow, EmptyState } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useLinkChild, useParent, useUnlinkChild } from '../api';

/** /parents/:id (admin): the parent's details and children; link a child by admission number, remove a link. */
export default function ParentDetailPage() {
  const id = Number(useParams().id) || 0;
  const parent = useParent(id);
  return (
    <PageLayout title={parent.data?.name ?? PARENT_SCREENS.list.title} width="max-w-3xl">
      <Link to={PARENT_SCREENS.list.to} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← {PARENT_SCREENS.list.title}
      </Link>
      <QueryView query={parent} messages={{ fallback: M.detailFailed, useDetail: true }}>
        {(p) => (
          <div className="flex flex-col gap-4">
            <Card>
              <dl>
                <DetailRow label={L.phone} value={formatNigerianPhone(p.phone)} />
                <DetailRow label={L.email} value={p.email ?? ''} />
                <DetailRow label={L.invited} value={p.invited_at ? formatDateTime(p.invited_at) : L.notYet} />
                <DetailRow label={L.lastSignIn} value={p.last_sign_in_at ? formatDateTime(p.last_sign_in_at) : L.never} />
              </dl>
            </Card>
            <Card title={L.children}>
              {p.children.length === 0 ? (
                <EmptyState>{M.noLinks}</EmptyState>
              ) : (
                <ul className="flex flex-col gap-2" aria-label={L.children} data-testid="parent-children">
                  {p.children.map((c) => (
                    <ChildLink key={c.admission_number} parentId={p.id} parentName={p.name} c={c} />
                  ))}
                </ul>
              )}
            </Card>
            <LinkForm parentId={p.id} />
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}

function ChildLink({ parentId, parentName, c }: { parentId: number; parentName: string; c: ParentChildLink }) {
  const toast = useToast();
  const unlink = useUnlinkChild(parentId);
  const [asking, setAsking] = useState(false);
  const name = `${c.first_name} ${c.last_name}`;
  return (
    <li className="rounded-lg border border-slate-200 p-3" data-testid="parent-child" data-admission={c.admission_number}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">
            {name} <span className="text-sm font-normal text-slate-600">{c.admission_number}</span>
          </p>
          <p className="text-sm text-slate-700">
            {c.arm} · {PARENT_RELATIONSHIP_LABELS[c.relationship]} · {L.source}: {PARENT_LINK_SOURCE_LABELS[c.source]}
          </p>
        </div>
        <Button variant="secondary" aria-label={L.removeLinkOf(name)} onClick={() => setAsking(true)}>
          {L.removeLink}
        </Button>
      </div>
      {asking && (
        <ConfirmPanel
          label={L.removeLinkOf(name)}
          confirm={L.removeLink}
          danger
          loading={unlink.isPending}
          onCancel={() => setAsking(false)}
          onConfirm={() =>
            unlink.mutate(c.admission_number, {
              onSuccess: () => toast.success(L.removedLink),
              onError: (err) => toast.error(errorMessage(err, { fallback: M.unlinkFailed, useDetail: true })),
            })
          }
        >
          {L.removeConfirm(name, parentName)}
        </ConfirmPanel>
      )}
    </li>
  );
}

const EMPTY = { admission_number: '', relationship: 'guardian' };

function LinkForm({ parentId }: { parentId: number }) {
  const toast = useToast();
  const link = useLinkChild(parentId);
  const [failure, setFailure] = useState('');
  const form = useSchemaForm({
    defaultValues: EMPTY,
    schema: parentLinkSchema,
    toBody: (v: typeof EMPTY) => ({ ...v, admission_number: v.admission_number.trim().toUpperCase() }),
  });
  async function save(_v: typeof EMPTY, body: unknown) {
    try {
      await link.mutateAsync(body as { admission_number: string; relationship: 'father' | 'mother' | 'guardian' });
      toast.success(L.addedLink);
      form.setValues(EMPTY);
    } catch (err) {
      form.fail(fieldErrorsOf(err));
      setFailure(errorMessage(err, { fallback: M.linkFailed, useDetail: true }));
    }
  }
  return (
    <Card title={L.addLink}>
      {failure && (
        <Alert tone="error" className="mb-3">
          <span data-testid="link-error">{failure}</span>
        </Alert>
      )}
      <form
        ref={form.formRef}
        noValidate
        className="grid gap-3 sm:grid-cols-3 sm:items-end"
        onSubmit={(e) => {
          setFailure('');
          void form.submit(save)(e);
        }}
      >
        <TextField label={L.admissionNumber} required autoComplete="off" autoCapitalize="characters" {...form.field('admission_number')} />
        <SelectField label={L.relationship} required options={PARENT_RELATIONSHIP_OPTIONS} {...form.field('relationship')} />
        <SubmitButton busy={link.isPending} busyLabel="Saving...">
          {L.link}
        </SubmitButton>
      </form>
    </Card>
  );
}
