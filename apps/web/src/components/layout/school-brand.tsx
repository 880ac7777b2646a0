import { useSchoolSettings } from '../../lib/school-settings';

const FALLBACK = { school_name: 'School Portal', motto: 'raising role models', logo: '' };

/** Logo, school title and motto, from the school's settings. */
export function SchoolBrand({ compact = false }: { compact?: boolean }) {
  const { data } = useSchoolSettings();
  const s = data ?? FALLBACK;
  return (
    <span className="flex min-w-0 items-center gap-3">
      {s.logo ? (
        <img src={s.logo} alt="" className="h-10 w-10 shrink-0 rounded-full bg-white object-contain" />
      ) : (
        <img src="/favicon.svg" alt="" className="h-10 w-10 shrink-0" width="40" height="40" />
      )}
      <span className="min-w-0">
        <span className="block truncate text-base font-bold leading-tight sm:text-lg">{s.school_name}</span>
        {!compact && <span className="block truncate text-xs italic text-accent-400 sm:text-sm">{s.motto}</span>}
      </span>
    </span>
  );
}
