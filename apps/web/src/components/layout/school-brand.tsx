import { useSchoolSettings } from '../../lib/school-settings';

const FALLBACK = { school_name: 'School Portal', motto: 'raising role models', logo: '' };

/**
 * The portal's crest (public/favicon.svg's drawing) when the school has no logo, drawn inline: as an
 * `<img>` every page would fetch it and load it as an SVG document of its own before its first paint
 * (~12 ms of the main thread on a desktop, four times that on a cheap phone; decision 055).
 */
export function DefaultCrest() {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" className="h-10 w-10 shrink-0" width="40" height="40">
      <rect width="64" height="64" rx="14" fill="#14532d" />
      <path d="M32 12 8 24l24 12 24-12Z" fill="#facc15" />
      <path d="M18 30v12c0 4 6 8 14 8s14-4 14-8V30l-14 7Z" fill="#fff" />
    </svg>
  );
}

/** Logo, school title and motto, from the school's settings. */
export function SchoolBrand({ compact = false }: { compact?: boolean }) {
  const { data } = useSchoolSettings();
  const s = data ?? FALLBACK;
  return (
    <span className="flex min-w-0 items-center gap-3">
      {s.logo ? (
        <img src={s.logo} alt="" className="h-10 w-10 shrink-0 rounded-full bg-white object-contain" />
      ) : (
        <DefaultCrest />
      )}
      <span className="min-w-0">
        <span className="block truncate text-base font-bold leading-tight sm:text-lg">{s.school_name}</span>
        {!compact && <span className="block truncate text-xs italic text-accent-400 sm:text-sm">{s.motto}</span>}
      </span>
    </span>
  );
}
