import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TERM_VALUES, termLabel } from '@portal/domain/constants';
import type { ArmApproval } from '@portal/domain/report-cards';
import { REPORT_CARD_SCREEN_MESSAGES as M } from '@portal/domain/report-card-screens';
import { Alert } from '../../components/ui/alert';
import { api } from '../../lib/api-client';
import { formatDate } from '../../lib/datetime';
import { currentSessionId, useSessions } from '../../lib/school-calendar';

const T = { timeout: 10_000 };

/**
 * A form teacher whose arm was sent back learns it on their home page, with the
 * principal's reason and a link to the arm's comment sheet. Self-contained (its own small reads of
 * the current session's approvals, the same keys the approvals page uses) so the staff home's layout
 * can change around it. Nothing shows for a staff member who is no arm's form teacher.
 */
export function SentBackNotice() {
  const sessionId = currentSessionId(useSessions().data);
  const terms = useQueries({
    queries: TERM_VALUES.map((term) => ({
      queryKey: ['report-approvals', sessionId, term],
      queryFn: () => api.get<ArmApproval[]>('/report-approvals/', { query: { session_id: sessionId, term }, ...T }),
      enabled: !!sessionId,
      retry: false,
      staleTime: 0,
    })),
  });
  const returned = TERM_VALUES.flatMap((term, i) =>
    (terms[i]?.data ?? []).filter((a) => a.status === 'draft' && a.returned_reason).map((a) => ({ term, arm: a })),
  );
  if (!returned.length) return null;
  return (
    <div className="mb-5" data-testid="sent-back-notice">
      <Alert tone="warning" title={M.sentBackNoticeTitle}>
        <ul className="flex flex-col gap-2">
          {returned.map(({ term, arm }) => {
            const query = new URLSearchParams({ session_id: sessionId, term, class: arm.student_class }).toString();
            return (
              <li key={`${term}-${arm.student_class}`}>
                <p>
                  {M.sentBackNotice(
                    arm.student_class,
                    termLabel(term),
                    arm.returned_at ? formatDate(arm.returned_at) : null,
                    arm.returned_reason!,
                  )}
                </p>
                <p className="mt-1 flex flex-wrap gap-x-4">
                  <Link className="font-semibold text-amber-950 underline" to={`/class-comments?${query}`}>
                    {M.sentBackOpenComments(arm.student_class)}
                  </Link>
                  <Link className="font-semibold text-amber-950 underline" to="/report-approvals">
                    {M.sentBackOpenApprovals}
                    <span className="sr-only"> ({arm.student_class})</span>
                  </Link>
                </p>
              </li>
            );
          })}
        </ul>
      </Alert>
    </div>
  );
}
