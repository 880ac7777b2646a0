import { Link } from 'react-router';
import { SETUP_MESSAGES as M, SETUP_STEPS } from '@portal/domain/first-run';
import { Button } from '../../components/ui/button';
import { useToast } from '../../lib/toast';
import { useDismissSetup, useSetupChecklist } from './api';

/**
 * The admin home's first-run checklist: the set-up steps in the order a school needs
 * them, each ticked from the school's own data (the server decides), each linking to its screen.
 * Hidden once every step is done and the admin dismisses it. Nothing is shown while it loads or if
 * it fails: the menu below still reaches every screen.
 */
export function SetupChecklist() {
  const { data } = useSetupChecklist();
  const dismiss = useDismissSetup();
  const toast = useToast();
  if (!data || data.dismissed) return null;
  const done = new Set(data.steps.filter((s) => s.done).map((s) => s.id));
  return (
    <section
      aria-labelledby="setup-title"
      className="mb-6 rounded-xl border border-brand-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="setup-checklist"
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="setup-title">{M.title}</h2>
        <p className="text-sm font-medium text-slate-700" data-testid="setup-progress">
          {M.progress(done.size, SETUP_STEPS.length)}
        </p>
      </div>
      <p className="mb-4 text-sm text-slate-700">{data.complete ? M.complete : M.intro}</p>
      <ol className="flex flex-col gap-2">
        {SETUP_STEPS.map((step, i) => {
          const ok = done.has(step.id);
          return (
            <li
              key={step.id}
              className={`flex items-start gap-3 rounded-lg border p-3 ${ok ? 'border-emerald-200 bg-emerald-50' : 'border-slate-200'}`}
              data-testid={`setup-step-${step.id}`}
              data-done={ok}
            >
              <span
                aria-hidden="true"
                className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  ok ? 'bg-emerald-700 text-white' : 'border-2 border-slate-400 text-slate-700'
                }`}
              >
                {ok ? '✓' : i + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-slate-900">
                  {step.title} <span className="sr-only">({ok ? M.done : M.todo})</span>
                </p>
                <p className="text-sm text-slate-700">{step.hint}</p>
                <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                  {step.links.map((l) => (
                    <Link key={l.to} to={l.to} className="inline-flex min-h-6 items-center text-sm font-medium text-brand-800 underline">
                      {l.label}
                    </Link>
                  ))}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
      {data.complete && (
        <div className="mt-4">
          <Button
            variant="secondary"
            loading={dismiss.isPending}
            onClick={() => dismiss.mutate(undefined, { onError: () => toast.error(M.notComplete) })}
          >
            {M.dismiss}
          </Button>
        </div>
      )}
    </section>
  );
}
