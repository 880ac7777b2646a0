import { Link } from 'react-router';
import { formatNigerianPhone, PARENT_RELATIONSHIP_LABELS, type ParentConflict } from '@portal/domain/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREEN_MESSAGES as M, PARENT_SCREENS } from '@portal/domain/parent-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useConflicts, useResolveConflict } from '../api';

/**
 * /parents/conflicts (admin): one phone number given for students whose parents' names disagree.
 * For each student the admin links them to that phone's parent or not; nothing is merged silently.
 */
export default function ParentConflictsPage() {
  const conflicts = useConflicts();
  return (
    <PageLayout title={PARENT_SCREENS.conflicts.title} width="max-w-4xl">
      <Link to={PARENT_SCREENS.list.to} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← {PARENT_SCREENS.list.title}
      </Link>
      <p className="mb-4 text-sm text-slate-700">{M.conflictsHint}</p>
      <QueryView query={conflicts} messages={{ fallback: M.conflictsFailed, useDetail: true }} empty={M.noConflicts}>
        {(list) => (
          <ul className="flex flex-col gap-4" aria-label={PARENT_SCREENS.conflicts.title}>
            {list.map((c) => (
              <li key={c.phone}>
                <Conflict c={c} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </PageLayout>
  );
}

function Conflict({ c }: { c: ParentConflict }) {
  const toast = useToast();
  const resolve = useResolveConflict();
  const busy = (adm: string) => resolve.isPending && resolve.variables?.admission_number === adm;
  return (
    <Card title={formatNigerianPhone(c.phone)}>
      <p className="mb-3 text-sm text-slate-700" data-testid="conflict-parent">
        {L.onFile}: {c.parent ? <span className="font-semibold">{c.parent.name}</span> : L.noParentYet}
      </p>
      <ul className="flex flex-col gap-2" data-testid="conflict" data-phone={c.phone}>
        {c.students.map((s) => {
          const name = `${s.first_name} ${s.last_name}`;
          const decide = (action: 'link' | 'dismiss') =>
            resolve.mutate(
              { phone: c.phone, admission_number: s.admission_number, action, ...(action === 'link' && !c.parent ? { name: s.name_given } : {}) },
              {
                onSuccess: () => toast.success(L.resolved),
                onError: (err) => toast.error(errorMessage(err, { fallback: M.resolveFailed, useDetail: true })),
              },
            );
          return (
            <li key={s.admission_number} className="rounded-lg border border-slate-200 p-3">
              <p className="font-semibold text-slate-900">
                {name} <span className="text-sm font-normal text-slate-600">{s.admission_number} · {s.arm}</span>
              </p>
              <p className="text-sm text-slate-700">
                {L.nameGiven}: <span className="font-medium">{s.name_given}</span> ({PARENT_RELATIONSHIP_LABELS[s.relationship]})
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button loading={busy(s.admission_number)} onClick={() => decide('link')} aria-label={`${L.linkToParent}: ${name}`}>
                  {L.linkToParent}
                </Button>
                <Button variant="secondary" disabled={busy(s.admission_number)} onClick={() => decide('dismiss')} aria-label={`${L.notThisParent}: ${name}`}>
                  {L.notThisParent}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
