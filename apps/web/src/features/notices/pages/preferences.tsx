import { useState } from 'react';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { NOTICE_MESSAGES } from '@portal/domain/notices';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { SubmitButton } from '../../../components/ui/button';
import { QueryView } from '../../../components/ui/query-view';
import { useToast } from '../../../lib/toast';
import { usePreferences, useSavePreferences } from '../api';
import { NOTICE_KIND_LABELS, type NoticeKind, type NoticePreferencesView } from '../contract';

/** The kinds as switches: on = sent; one that cannot be opted out of (payment receipts) shown on and fixed. */
function PreferencesForm({ data }: { data: NoticePreferencesView }) {
  const save = useSavePreferences();
  const toast = useToast();
  const [optedOut, setOptedOut] = useState<Partial<Record<NoticeKind, boolean>>>(() =>
    Object.fromEntries(data.kinds.map((k) => [k.kind, k.opted_out])),
  );
  function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const kinds = data.kinds.filter((k) => k.can_opt_out).map((k) => ({ kind: k.kind, opted_out: Boolean(optedOut[k.kind]) }));
    save.mutate(kinds, { onSuccess: () => toast.success(M.preferencesSaved), onError: () => toast.error(M.preferencesSaveFailed) });
  }
  return (
    <form onSubmit={onSubmit} noValidate>
      <Card>
        <fieldset>
          <legend className="mb-3 font-semibold">{L.receive}</legend>
          <ul className="flex flex-col divide-y divide-slate-100">
            {data.kinds.map((k) => {
              const id = `pref-${k.kind}`;
              const fixed = !k.can_opt_out;
              const label = k.label || NOTICE_KIND_LABELS[k.kind];
              return (
                <li key={k.kind} className="flex min-h-11 flex-col justify-center py-2">
                  <label htmlFor={id} className="flex items-center gap-3 text-sm">
                    <input
                      id={id}
                      type="checkbox"
                      className="h-5 w-5"
                      checked={fixed || !optedOut[k.kind]}
                      disabled={fixed}
                      aria-describedby={fixed ? `${id}-fixed` : undefined}
                      onChange={(e) => setOptedOut((o) => ({ ...o, [k.kind]: !e.target.checked }))}
                    />
                    {label}
                  </label>
                  {fixed && (
                    <p id={`${id}-fixed`} className="mt-1 pl-8 text-xs text-slate-600">
                      {NOTICE_MESSAGES.cannotOptOut(label)}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
        <SubmitButton className="mt-4" busy={save.isPending} busyLabel="Saving...">
          {L.savePreferences}
        </SubmitButton>
      </Card>
    </form>
  );
}

/** A parent: which kinds of notice they get (by SMS, email and in the portal). */
export default function PreferencesPage() {
  const prefs = usePreferences();
  return (
    <PageLayout title={S.preferences.label} width="max-w-2xl">
      <QueryView query={prefs} messages={M.preferencesFailed}>
        {(data) => <PreferencesForm data={data} />}
      </QueryView>
    </PageLayout>
  );
}
