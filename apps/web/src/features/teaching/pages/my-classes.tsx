import { useState } from 'react';
import { Link } from 'react-router';
import { TERMS } from '@portal/domain/constants';
import { TEACHING_MESSAGES } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { openingTerm, useCurrentTerm } from '../../../lib/current-term';
import { useMyClasses } from '../../../lib/my-classes';
import { useSessions } from '../../../lib/school-calendar';
import { SessionSelect } from '../../../components/school/session-select';

/** The class score grid of a pair (a plain address: the results feature owns the screen). */
const gridLink = (sessionId: number | undefined, term: string, cls: string, subject: string) =>
  `/score-sheet?${new URLSearchParams({ ...(sessionId ? { session_id: String(sessionId) } : {}), ...(term ? { term } : {}), class: cls, subject }).toString()}`;
const entryLink = (cls: string) => `/ResultUpload?${new URLSearchParams({ student_class: cls }).toString()}`;

/** /my-classes (staff and admin): the signed-in teacher's arm-subject pairs and form classes for a session. */
export default function MyClassesPage() {
  const sessions = useSessions();
  const current = useCurrentTerm();
  const [chosenSession, setSessionId] = useState('');
  const [chosenTerm, setTerm] = useState<string | null>(null);
  // Opens on the current term (the server's, from the calendar); the links carry it to the score sheet.
  const open = openingTerm(sessions.data, current);
  const sessionId = chosenSession || (open?.sessionId ?? '');
  const term = chosenTerm ?? (open && open.sessionId === sessionId ? open.term : '');
  const mine = useMyClasses(sessionId, !!open || !!chosenSession);
  const data = mine.data;
  const none = data && data.subjects.length === 0 && data.form_classes.length === 0;

  return (
    <PageLayout title="My Classes">
      <Card className="mb-5">
        <div className="grid gap-4 sm:grid-cols-2 md:w-2/3">
          <SessionSelect
            label="Session"
            value={sessionId || (data?.session ? String(data.session.id) : '')}
            onChange={(e) => {
              setSessionId(e.target.value);
              setTerm(null);
            }}
            placeholder={false}
          />
          <SelectField label="Term" value={term} onChange={(e) => setTerm(e.target.value)} placeholder="Select term" options={TERMS} />
        </div>
        {data && (
          <p className="mt-3 text-sm text-slate-600" data-testid="enforcement-state">
            {data.enforce_assignments ? TEACHING_MESSAGES.enforcementOn : TEACHING_MESSAGES.enforcementOff}
          </p>
        )}
      </Card>
      {mine.isPending ? (
        <LoadingBlock />
      ) : mine.isError || !data ? (
        <Alert tone="error">{M.loadFailed}</Alert>
      ) : none ? (
        <EmptyState>{TEACHING_MESSAGES.noClassesYet}</EmptyState>
      ) : (
        <div className="flex flex-col gap-5">
          {data.subjects.length > 0 && (
            <Card title="Subjects I teach">
              <table className="stack-sm w-full border-collapse text-sm" aria-label="Subjects I teach">
                <thead>
                  <tr className="border-b-2 border-slate-300 text-left">
                    <th scope="col" className="p-2">
                      Class and subject
                    </th>
                    <th scope="col" className="p-2">
                      Students
                    </th>
                    <th scope="col" className="p-2">
                      <span className="sr-only">Score entry</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.subjects.map((p) => (
                    <tr
                      key={`${p.arm_id}-${p.subject}`}
                      className="border-b border-slate-100"
                      data-testid={`pair-${p.class_name}-${p.subject}`}
                    >
                      <th scope="row" className="p-2 text-left font-medium">
                        {p.class_name} · {p.subject}
                      </th>
                      <td data-label="Students" className="p-2">
                        {p.students}
                      </td>
                      <td className="p-2">
                        <span className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1 sm:justify-start">
                          <Link
                            to={gridLink(data.session?.id, term, p.class_name, p.subject)}
                            className={buttonClass('secondary', 'min-h-9 px-3 whitespace-nowrap')}
                            aria-label={`Enter ${p.subject} scores for ${p.class_name}`}
                          >
                            Enter scores
                          </Link>
                          <Link
                            to={entryLink(p.class_name)}
                            className="text-sm font-medium whitespace-nowrap text-brand-800 hover:underline"
                            aria-label={`Enter scores for one ${p.class_name} student at a time`}
                          >
                            One student at a time
                          </Link>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          )}
          {data.form_classes.length > 0 && (
            <Card title="My form classes">
              <ul className="divide-y divide-slate-100" aria-label="My form classes">
                {data.form_classes.map((f) => (
                  <li key={f.arm_id} className="py-2">
                    <p>
                      <span className="font-medium">{f.class_name}</span>{' '}
                      <span className="text-sm text-slate-600">
                        ({f.students} {f.students === 1 ? 'student' : 'students'})
                      </span>
                    </p>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </div>
      )}
    </PageLayout>
  );
}
