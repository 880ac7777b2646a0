import type { QueryClient } from '@tanstack/react-query';
import { keepOwnSheetsOffline } from './score-offline';
import { scoreSheetQuery } from './score-sheet-api';

/**
 * What the app's start (app/offline-keeping.ts) loads to keep a teacher's own sheets of the current
 * term on the phone: one module of its own, so the sheet's query stays in the grid's chunk.
 */
export function keepOwnSheets(qc: QueryClient, current: { session_id: number | null; term: string | null }): Promise<void> {
  return keepOwnSheetsOffline(qc, current, (q) => qc.fetchQuery({ ...scoreSheetQuery(q), staleTime: 60_000 }));
}
