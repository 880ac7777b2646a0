import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { termLabel } from '@portal/domain/constants';
import { CARD_STATUS_LABELS, REPORT_MESSAGES, type CardStatus } from '@portal/domain/report-card-rules';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { OFFLINE_SAFETY_MESSAGES } from '@portal/domain/offline-safety-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { SheetFrame } from '../../../components/layout/sheet-frame';
import { OfflineBanner } from '../../../lib/offline';
import { keptAt } from '../../../lib/offline-query';
import type { SheetQuery } from '../api';
import { SheetChooser, useSheetQuery } from './sheet-chooser';

/** Why a sheet cannot be changed: past draft, the server's own lock message; else the plain read-only note. */
function lockMessage(sheet: { status: CardStatus; student_class: string }): string {
  return sheet.status === 'draft' ? M.readOnly : REPORT_MESSAGES.lockedSubmitted(sheet.student_class, CARD_STATUS_LABELS[sheet.status]);
}

/** The note over a sheet the user may not change (lockMessage says why). */
export function LockNote({ sheet }: { sheet: { status: CardStatus; student_class: string } }) {
  return (
    <Alert tone="warning" className="mb-3">
      {lockMessage(sheet)}
    </Alert>
  );
}

/** One sheet's identity (session, term, arm): the sheet's editor starts afresh when it changes. */
export const sheetKey = (sheet: { session_id: number | string; term: string; student_class: string }) =>
  `${sheet.session_id}|${sheet.term}|${sheet.student_class}`;

interface SheetBase {
  status: CardStatus;
  student_class: string;
  rows: unknown[];
}

/**
 * Over an editable sheet shown offline (or from the copy kept on this phone): since when, the data's
 * time, and that what is typed is kept and sent later (the register's banner).
 */
export function SheetOfflineBanner({ sheet, fetchedAt }: { sheet: object; fetchedAt: number }) {
  return <OfflineBanner fetchedAt={keptAt(sheet) ?? fetchedAt} fromCopy={keptAt(sheet) !== null} entries />;
}

/**
 * The frame both sheets share: the arm chooser until one is chosen, then the arm, term and status,
 * the way back to the chooser, and loading, error and empty states around the sheet itself. The
 * sheet is kept on this phone (api.ts): offline it opens from that copy; never opened here, it says so.
 */
export function SheetPage<S extends SheetBase>({
  title,
  route,
  action,
  useSheet,
  children,
}: {
  title: string;
  route: string;
  action: string;
  useSheet: (q: SheetQuery | null) => UseQueryResult<S>;
  /** The sheet, and when it was read from the server. */
  children: (sheet: S, fetchedAt: number) => ReactNode;
}) {
  const [q, params, setParams] = useSheetQuery();
  const sheetQuery = useSheet(q);
  const sheet = sheetQuery.data;
  if (!q)
    return (
      <PageLayout title={title}>
        <SheetChooser params={params} onOpen={setParams} action={action} />
      </PageLayout>
    );
  return (
    <SheetFrame
      title={title}
      heading={
        <>
          {q.student_class} · {termLabel(q.term)}
          {sheet ? ` · ${CARD_STATUS_LABELS[sheet.status]}` : ''}
        </>
      }
      back={{ to: route, label: L.changeClass }}
      load={{
        query: sheetQuery,
        failed: M.loadFailed,
        // Offline with no copy kept on this phone (the register's words).
        network: OFFLINE_SAFETY_MESSAGES.noSavedCopy,
        empty: REPORT_MESSAGES.noStudents,
      }}
    >
      {(s) => children(s, sheetQuery.dataUpdatedAt)}
    </SheetFrame>
  );
}
