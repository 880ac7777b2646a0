import { ADMISSION_MESSAGES as M, ADMISSION_PAGE_FIELDS } from '@portal/domain/admission-constants';
import { DEFAULT_SCHOOL_SETTINGS } from '@portal/domain/settings-constants';
import { SiteHeader } from '../../components/layout/site-header';
import { Alert } from '../../components/ui/alert';
import { BUTTON_BASE } from '../../components/ui/button';
import { LoadingBlock } from '../../components/ui/spinner';
import { useAdmissionPage } from '../../lib/admission-page';
import { useSchoolSettings } from '../../lib/school-settings';
import { externalLink } from './external-link';

/**
 * /admission (public): the school's admission process in its own words, edited in the
 * settings. Every section is shown as text (React escapes it; line breaks kept by CSS), never as HTML.
 */
export function AdmissionProcessPage() {
  const page = useAdmissionPage();
  const { data } = useSchoolSettings();
  const s = data ?? DEFAULT_SCHOOL_SETTINGS;
  const apply = externalLink(s.admission_url);
  return (
    <div className="min-h-dvh">
      <SiteHeader />
      <main className="mx-auto max-w-3xl px-4 py-8">
        <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">{M.pageTitle}</h1>
        <p className="mt-1 text-slate-700">{s.school_name}</p>
        {page.isPending ? (
          <LoadingBlock />
        ) : page.isError || !page.data ? (
          <Alert tone="error">{M.loadFailed}</Alert>
        ) : (
          <div className="mt-6 flex flex-col gap-4">
            {ADMISSION_PAGE_FIELDS.map((f) => (
              <section
                key={f.key}
                aria-labelledby={`admission-${f.key}`}
                className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
              >
                <h2 id={`admission-${f.key}`} className="mb-2 text-lg">
                  {f.label}
                </h2>
                <p className="whitespace-pre-line text-slate-800 [overflow-wrap:anywhere]" data-testid={`admission-${f.key}`}>
                  {page.data[f.key] || M.empty}
                </p>
              </section>
            ))}
          </div>
        )}
        {apply && (
          <p className="mt-6">
            <a href={apply} className={`${BUTTON_BASE} bg-brand-800 text-white hover:bg-brand-900`} rel="noopener">
              {M.applyOnline}
            </a>
          </p>
        )}
      </main>
    </div>
  );
}
