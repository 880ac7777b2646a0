import { Link } from 'react-router';
import { CODE_OF_CONDUCT, DEFAULT_SCHOOL_SETTINGS, SCHOOL_SECTIONS } from '@portal/domain/settings-constants';
import { SiteHeader } from '../../components/layout/site-header';
import { BUTTON_BASE } from '../../components/ui/button';
import { RESULT_PIN_SCREENS } from '@portal/domain/result-pin-screens';
import { useCheckResultOffered } from '../../lib/check-result';
import { useSchoolSettings } from '../../lib/school-settings';

/** The public home page. */
export function PublicHome() {
  const { data } = useSchoolSettings();
  const s = data ?? DEFAULT_SCHOOL_SETTINGS;
  const pins = useCheckResultOffered();
  return (
    <div className="min-h-dvh">
      <SiteHeader />
      <main>
        {/* A solid background: axe cannot measure contrast over a gradient, which hid a white-on-white button. */}
        <section className="bg-brand-900 text-white">
          <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
            <p className="text-sm font-semibold tracking-wide text-accent-400 uppercase">{s.motto}</p>
            <h1 className="mt-2 text-3xl font-bold text-white sm:text-4xl">Welcome to {s.school_name}</h1>
            <p className="mt-4 max-w-2xl text-white/90">{s.about}</p>
            <div className="mt-6 flex flex-wrap gap-3">
              {/* Always the portal's own page; it links on to an external address when one is set. */}
              <Link to="/admission" className={`${BUTTON_BASE} bg-accent-400 text-brand-900 hover:bg-accent-500`}>
                Admission process
              </Link>
              <Link to="/login" className={`${BUTTON_BASE} border border-white bg-brand-900 text-white hover:bg-brand-800`}>
                Sign in to the portal
              </Link>
              {pins && (
                <Link
                  to={RESULT_PIN_SCREENS.check.to}
                  className={`${BUTTON_BASE} border border-white bg-brand-900 text-white hover:bg-brand-800`}
                  data-testid="check-result-link"
                >
                  {RESULT_PIN_SCREENS.check.label}
                </Link>
              )}
            </div>
          </div>
        </section>

        <section aria-labelledby="facts" className="mx-auto max-w-6xl px-4 py-10">
          <h2 id="facts" className="sr-only">
            Our history
          </h2>
          <dl className="grid gap-4 sm:grid-cols-3">
            {[
              { label: 'Founded', value: s.founded_year },
              { label: 'Registered', value: s.registered_year },
              { label: 'First graduation', value: s.first_graduation_year },
            ].map((f) => (
              <div key={f.label} className="rounded-xl border border-slate-200 bg-white p-5 text-center shadow-sm">
                <dt className="text-sm font-medium text-slate-600">{f.label}</dt>
                <dd className="mt-1 text-3xl font-bold text-brand-800">{f.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="schools" className="mx-auto max-w-6xl px-4 pb-10">
          <h2 id="schools" className="mb-4 text-xl">
            Our schools
          </h2>
          <ul className="grid gap-4 sm:grid-cols-3">
            {SCHOOL_SECTIONS.map((sec) => (
              <li key={sec.name} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <h3 className="font-semibold text-brand-900">{sec.name}</h3>
                <p className="mt-1 text-sm text-slate-700">{sec.description}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="conduct" className="bg-white">
          <div className="mx-auto max-w-6xl px-4 py-10">
            <h2 id="conduct" className="mb-4 text-xl">
              Code of conduct
            </h2>
            <ol className="grid gap-3 sm:grid-cols-2">
              {CODE_OF_CONDUCT.map((rule, i) => (
                <li key={rule} className="flex items-start gap-3 rounded-lg bg-brand-50 p-4">
                  <span
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-800 text-sm font-bold text-white"
                    aria-hidden="true"
                  >
                    {i + 1}
                  </span>
                  <span className="text-slate-800">{rule}</span>
                </li>
              ))}
            </ol>
          </div>
        </section>
      </main>
      <footer className="bg-brand-900 text-sm text-white/80">
        <div className="mx-auto max-w-6xl px-4 py-6">
          <p className="font-semibold text-white">{s.school_name}</p>
          {s.address && <p>{s.address}</p>}
          {(s.phone || s.email) && <p>{[s.phone, s.email].filter(Boolean).join(' · ')}</p>}
        </div>
      </footer>
    </div>
  );
}
