import { useState } from 'react';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Card, EmptyState } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useAssignments, useStaffList, useStructure } from '../api';
import { currentSessionId, useSessions } from '../../../lib/school-calendar';
import { SessionSelect } from '../../../components/school/session-select';
import { EnforcementCard } from '../components/enforcement-card';
import { GridCard } from '../components/assignment-grid-card';
import { WindowsCard } from '../components/windows-card';

/** /teaching-assignments (admin): who teaches what in which arm, form teachers, enforcement and score-entry windows. */
export default function TeachingAssignmentsPage() {
  const sessions = useSessions();
  const [picked, setPicked] = useState('');
  const sessionId = picked || currentSessionId(sessions.data);
  const structure = useStructure();
  const assignments = useAssignments(sessionId);
  const staff = useStaffList();

  return (
    <PageLayout title="Teaching Assignments" width="max-w-6xl">
      <Card className="mb-5">
        <div className="sm:w-64">
          <SessionSelect label="Session" value={sessionId} onChange={(e) => setPicked(e.target.value)} placeholder={false} />
        </div>
      </Card>
      {sessions.isSuccess && sessions.data.length === 0 ? (
        <EmptyState>{M.noSessions}</EmptyState>
      ) : structure.isPending || assignments.isPending || staff.isPending ? (
        <LoadingBlock />
      ) : structure.isError || assignments.isError || staff.isError ? (
        <Alert tone="error">{M.loadFailed}</Alert>
      ) : (
        <div className="flex flex-col gap-5">
          <EnforcementCard sessionId={Number(sessionId)} data={assignments.data} />
          {/* Keyed by session: unsaved picks of one session never carry over to another. */}
          <GridCard key={sessionId} sessionId={Number(sessionId)} data={assignments.data} structure={structure.data} staff={staff.data} />
          <WindowsCard sessionId={Number(sessionId)} data={assignments.data} />
        </div>
      )}
    </PageLayout>
  );
}
