import { Link } from 'react-router';
import { ATTENDANCE_SCREENS as ATT } from '@portal/domain/attendance';
import { MenuGrid, type MenuItem } from './menu';
import { useMyClasses } from '../../lib/my-classes';

const scoreSheet = (sessionId: number | undefined, cls: string, subject: string) =>
  `/score-sheet?${new URLSearchParams({ ...(sessionId ? { session_id: String(sessionId) } : {}), class: cls, subject }).toString()}`;
const register = (cls: string) => `${ATT.register.to}?${new URLSearchParams({ class: cls }).toString()}`;

/** Always first on a teacher's home, whether or not they have classes this session. */
export const MY_CLASSES_MENU: readonly MenuItem[] = [
  { to: '/my-classes', label: 'My Classes', description: 'The classes and subjects you teach' },
  ATT.register,
];

/**
 * The top of a teacher's home: their own classes this session, each one tap from
 * its score sheet, and their form classes one tap from the register; then the screens behind them.
 */
export function TeacherClasses() {
  const { data } = useMyClasses('');
  const pairs = data?.subjects ?? [];
  const forms = data?.form_classes ?? [];
  return (
    <section aria-labelledby="my-classes-title">
      <h2 id="my-classes-title" className="mb-3">
        My classes{data?.session ? <span className="text-base font-normal text-slate-600"> · {data.session.name}</span> : null}
      </h2>
      {(pairs.length > 0 || forms.length > 0) && (
        <ul className="mb-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your classes this session" data-testid="teacher-classes">
          {forms.map((f) => (
            <li key={`form-${f.arm_id}`}>
              <Link
                to={register(f.class_name)}
                className="flex min-h-12 items-center justify-between gap-2 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2 hover:border-brand-700"
              >
                <span className="font-semibold text-brand-900">{f.class_name}</span>
                <span className="text-sm text-slate-700">Mark register</span>
              </Link>
            </li>
          ))}
          {pairs.map((p) => (
            <li key={`${p.arm_id}-${p.subject}`}>
              <Link
                to={scoreSheet(data?.session?.id, p.class_name, p.subject)}
                className="flex min-h-12 items-center justify-between gap-2 rounded-xl border border-slate-200 bg-white px-4 py-2 hover:border-brand-700"
              >
                <span className="min-w-0 font-semibold text-brand-900">
                  {p.class_name} · {p.subject}
                </span>
                <span className="shrink-0 text-sm text-slate-700">Enter scores</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <MenuGrid items={MY_CLASSES_MENU} label="My classes" />
    </section>
  );
}
