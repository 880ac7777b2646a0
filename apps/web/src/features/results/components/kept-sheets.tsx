import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ScoreSheet } from '@portal/domain/assessment';
import { termLabel } from '@portal/domain/constants';
import { Card } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/datetime';
import { sheetCache, useOfflineUser, useOnline, type SheetRecord } from '../../../lib/offline';
import { SCORE_KIND } from '../score-offline';

const linkOf = (s: ScoreSheet) =>
  `/score-sheet?${new URLSearchParams({ session_id: String(s.session.id), term: s.term, class: s.student_class, subject: s.subject }).toString()}`;

/** Offline, the score sheets kept on this phone, one tap each (the choosers need the network). */
export function KeptSheets() {
  const user = useOfflineUser();
  const online = useOnline();
  const [kept, setKept] = useState<SheetRecord<ScoreSheet>[]>([]);
  useEffect(() => {
    if (!user || online) return;
    let live = true;
    void sheetCache.list<ScoreSheet>(user, SCORE_KIND).then((rows) => {
      if (live) setKept(rows.sort((a, b) => a.sheet.localeCompare(b.sheet)));
    });
    return () => {
      live = false;
    };
  }, [user, online]);
  if (online || !kept.length) return null;
  return (
    <Card className="mb-4">
      <h2 className="mb-2 text-lg">Kept on this phone</h2>
      <ul className="grid gap-2 sm:grid-cols-2" data-testid="kept-sheets">
        {kept.map((k) => (
          <li key={k.id}>
            <Link
              to={linkOf(k.data)}
              className="flex min-h-12 flex-col justify-center rounded-xl border border-slate-200 bg-white px-4 py-2 hover:border-brand-700"
            >
              <span className="font-semibold text-brand-900">
                {k.data.student_class} · {k.data.subject} · {termLabel(k.data.term)}
              </span>
              <span className="text-sm text-slate-700">Data from {formatDateTime(new Date(k.fetchedAt).toISOString())}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
