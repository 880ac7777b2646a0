import { Link } from 'react-router';
import { GENERAL_MESSAGES } from '@portal/domain/http';
import { buttonClass } from '../components/ui/button';

/** Any unknown path: a friendly illustration and a way back. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <svg width="220" height="160" viewBox="0 0 220 160" role="img" aria-labelledby="nf-title">
        <title id="nf-title">An open book with a question mark</title>
        <ellipse cx="110" cy="148" rx="80" ry="8" fill="#e2e8f0" />
        <path d="M20 40c30-12 60-12 90 4v96c-30-16-60-16-90-4Z" fill="#dcfce7" stroke="#15803d" strokeWidth="3" />
        <path d="M200 40c-30-12-60-12-90 4v96c30-16 60-16 90-4Z" fill="#f0fdf4" stroke="#15803d" strokeWidth="3" />
        <text x="110" y="40" textAnchor="middle" fontSize="44" fontWeight="700" fill="#eab308">
          ?
        </text>
        <text x="60" y="98" textAnchor="middle" fontSize="28" fontWeight="700" fill="#166534">
          4
        </text>
        <text x="160" y="98" textAnchor="middle" fontSize="28" fontWeight="700" fill="#166534">
          4
        </text>
        <circle cx="110" cy="90" r="14" fill="none" stroke="#166534" strokeWidth="5" />
      </svg>
      <h1>Page not found</h1>
      <p className="text-slate-600">{GENERAL_MESSAGES.pageNotFound}</p>
      <Link to="/" className={buttonClass('primary')}>
        Go to the home page
      </Link>
    </main>
  );
}
