import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatNigerianPhone, PARENT_MESSAGES, parentCreateSchema } from '@portal/domain/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREEN_MESSAGES as M, PARENT_SCREENS } from '@portal/domain/parent-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useBackfill, useCreateParent, useParents } from '../api';

/** Rows a page of the list holds (the server's page size). */
const PAGE_SIZE = 50;

/** /parents (admin): search by name, phone or email; each parent's children, invitation and last sign-in; a page at a time. */
export default function ParentsListPage() {
  const [params, patch] = useSearchParamPatch();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(search);
  const list = useParents({ ...(search ? { search } : {}), ...(page > 1 ? { page } : {}) });

  function onSearch(e: FormEvent) {
    e.preventDefault();
    patch({ search: typed.trim(), page: '' });
  }

  return (
    <PageLayout
      title={PARENT_SCREENS.list.title}
      width="max-w-6xl"
      actions={
        <>
          <ButtonLink variant="secondary" to={PARENT_SCREENS.invitations.to}>
            {PARENT_SCREENS.invitations.label}
          </ButtonLink>
          <ButtonLink variant="secondary" to={PARENT_SCREENS.conflicts.to}>
            {PARENT_SCREENS.conflicts.label}
          </ButtonLink>
        </>
      }
    >
      <Card className="mb-4">
        <form role="search" className="flex flex-wrap items-end gap-3" onSubmit={onSearch}>
          <div className="min-w-0 flex-1 basis-56">
            <TextField label={L.search} type="search" name="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          <Button type="submit">{L.searchButton}</Button>
        </form>
      </Card>
      <Card className="mb-4">
        <QueryView query={list} messages={{ fallback: M.listFailed }} isEmpty={(d) => d.results.length === 0} empty={M.noParents}>
          {(data) => {
            const pages = Math.max(1, Math.ceil(data.count / PAGE_SIZE));
            return (
              <>
                <p className="mb-2 text-sm text-slate-600" data-testid="parents-count">
                  {data.count} parent{data.count === 1 ? '' : 's'}
                </p>
                <RowTable
                  testId="parents-table"
                  rows={data.results}
                  rowKey={(p) => p.id}
                  columns={[
                    {
                      label: L.name,
                      cell: (p) => (
                        <Link className="font-semibold text-brand-900 underline" to={`/parents/${p.id}`}>
                          {p.name}
                        </Link>
                      ),
                    },
                    { label: L.phone, cell: (p) => formatNigerianPhone(p.phone) },
                    { label: L.email, cell: (p) => p.email ?? '—' },
                    { label: L.children, figures: true, cell: (p) => p.children },
                    { label: L.invited, cell: (p) => (p.invited_at ? formatDateTime(p.invited_at) : L.notYet) },
                    { label: L.lastSignIn, cell: (p) => (p.last_sign_in_at ? formatDateTime(p.last_sign_in_at) : L.never) },
                  ]}
                />
                {(page > 1 || data.next) && (
                  <nav className="mt-3 flex flex-wrap items-center gap-3 text-sm" aria-label={`Page ${page} of ${pages}`}>
                    <Button variant="secondary" disabled={page <= 1} onClick={() => patch({ page: page > 2 ? String(page - 1) : '' })}>
                      {L.previous}
                    </Button>
                    <span>
                      Page {page} of {pages}
                    </span>
                    <Button variant="secondary" disabled={!data.next} onClick={() => patch({ page: String(page + 1) })}>
                      {L.next}
                    </Button>
                  </nav>
                )}
              </>
            );
          }}
        </QueryView>
      </Card>
      <NewParent />
      <Backfill />
    </PageLayout>
  );
}

const EMPTY = { name: '', phone: '', email: '' };

/** A parent the admin adds by hand (one not on any student's form). */
function NewParent() {
  const toast = useToast();
  const create = useCreateParent();
  const [failure, setFailure] = useState('');
  const form = useSchemaForm({ defaultValues: EMPTY, schema: parentCreateSchema, toBody: (v: typeof EMPTY) => v });
  async function save(_v: typeof EMPTY, body: unknown) {
    try {
      await create.mutateAsync(body as Parameters<typeof create.mutateAsync>[0]);
      toast.success(L.added);
      form.setValues(EMPTY);
    } catch (err) {
      form.fail(fieldErrorsOf(err));
      setFailure(errorMessage(err, { fallback: M.addFailed, useDetail: true }));
    }
  }
  return (
    <Card title={L.newParent}>
      {failure && (
        <Alert tone="error" className="mb-3">
          {failure}
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
        <TextField label={L.name} required autoComplete="off" {...form.field('name')} />
        <TextField label={L.phone} type="tel" required autoComplete="off" hint={PARENT_MESSAGES.invalidPhone} {...form.field('phone')} />
        <TextField label={L.email} type="email" autoComplete="off" {...form.field('email')} />
        <div className="sm:col-span-3">
          <SubmitButton busy={create.isPending} busyLabel="Saving...">
            {L.add}
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

/** Links the parents named on the students' forms (fathers' and mothers' phones): once, for students registered before parents existed. */
function Backfill() {
  const toast = useToast();
  const backfill = useBackfill();
  return (
    <Card title={L.backfillTitle} className="mt-4">
      <p className="mb-3 text-sm text-slate-700">{M.backfillHint}</p>
      <Button
        variant="secondary"
        loading={backfill.isPending}
        onClick={() =>
          backfill.mutate(undefined, {
            onSuccess: (r) => toast.success(M.backfillDone(r.links, r.parents, r.conflicts)),
            onError: (err) => toast.error(errorMessage(err, { fallback: M.backfillFailed, useDetail: true })),
          })
        }
      >
        {L.backfill}
      </Button>
    </Card>
  );
}
