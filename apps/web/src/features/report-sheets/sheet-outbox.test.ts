// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommentSheet, CommentSheetRow, RatingSheet } from '@portal/domain/report-cards';
import { api, ApiError } from '../../lib/api-client';
import { clearSession, saveLogin } from '../../lib/auth-store';
import {
  clearOfflineData,
  closeOfflineStore,
  flushOutbox,
  PersistentOutboxStore,
  registerOutboxSender,
  scopeOf,
  sheetCache,
  unsentRows,
} from '../../lib/offline';
import { keptAt } from '../../lib/offline-query';
import { noteCurrentTerm, offlineScope } from '../../lib/offline-session';
import { commentSheetQuery, ratingSheetQuery, type SheetQuery } from './api';
import {
  COMMENTS_KIND,
  queuedCommentSave,
  queuedRatingSave,
  RATINGS_KIND,
  sendQueuedComment,
  sendQueuedRating,
  sheetOfRecord,
} from './sheet-outbox';
import type { Cells, StoredCells } from './sheet-model';

// The ratings and comments sheets on the offline core (decision 044, fake-indexeddb): a queued row
// is turned back into its save on the version it was made on, sent once by flushOutbox with no sheet
// open, and the sheet's kept copy takes the stored row (a reload offline starts from it).

const WHO = { role: 'staff' as const, publicId: 'STAFF-0001' };
const USER = 'staff:STAFF-0001';
const Q: SheetQuery = { session_id: 3, term: '1st', student_class: 'JSS 2A' };
const ADA = 'STU-0001';

const ratingSheet: RatingSheet = {
  status: 'draft',
  may_edit_form: true,
  may_edit_principal: false,
  form_teacher: 'Grace Okafor',
  session_id: 3,
  term: '1st',
  student_class: 'JSS 2A',
  traits: { affective: [{ id: 'neatness', name: 'Neatness' }], psychomotor: [{ id: 'music', name: 'Music' }] },
  rating_labels: ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'],
  rows: [{ admission_number: ADA, name: 'Ada Eze', ratings: { neatness: 3 }, version: 2 }],
};

const commentRow = (over: Partial<CommentSheetRow>): CommentSheetRow =>
  ({
    admission_number: ADA,
    name: 'Ada Eze',
    form_comment: '',
    principal_comment: 'Well done',
    days_present: null,
    days_absent: null,
    promotion: null,
    version: 1,
    ...over,
  }) as CommentSheetRow;

/** Runs a sheet's query as the screen would (its copy kept, or read offline). */
const fetchSheet = <T>(opts: { queryFn?: unknown }): Promise<T> => (opts.queryFn as () => Promise<T>)();

/** A row queued as an open sheet queues it, in the partition of the sheet's session and term. */
async function queue(kind: string, value: Cells, base: StoredCells) {
  const store = new PersistentOutboxStore<Cells, StoredCells>(scopeOf(WHO, Q.session_id, Q.term), kind, Q.student_class);
  store.put(ADA, { value, base });
  await store.idle();
}

/** The sheet's kept copy, as the query keeps it (its put is not awaited by the query). */
async function keptCopy(kind: string) {
  await vi.waitFor(async () => expect(await sheetCache.list(USER, kind)).toHaveLength(1));
}

beforeEach(async () => {
  localStorage.clear();
  saveLogin('staff', { access: 'a', refresh: 'r', first_name: 'Grace', staff_id: WHO.publicId });
  await noteCurrentTerm(USER, { session_id: 3, term: '1st' });
  registerOutboxSender(RATINGS_KIND, (rec) => sendQueuedRating(rec));
  registerOutboxSender(COMMENTS_KIND, (rec) => sendQueuedComment(rec));
});

afterEach(async () => {
  vi.restoreAllMocks();
  clearSession();
  await clearOfflineData();
  await closeOfflineStore();
});

describe('a queued report-sheet row', () => {
  it("names its sheet by the partition's session and term and the arm", () => {
    expect(sheetOfRecord({ term: '3:1st', sheet: 'JSS 2A' })).toEqual(Q);
    expect(sheetOfRecord({ term: 'unknown', sheet: 'JSS 2A' })).toBeNull();
    expect(sheetOfRecord({ term: '3:4th', sheet: 'JSS 2A' })).toBeNull();
  });

  it('a rating row is saved with every trait it holds (empty: cleared) on the version it was made on; a bad cell is never sent', () => {
    expect(queuedRatingSave(Q, ADA, { neatness: '4', music: '' }, { cells: { neatness: '3', music: '' }, version: 2 })).toEqual({
      ...Q,
      rows: [{ admission_number: ADA, ratings: { neatness: 4, music: null }, version: 2 }],
    });
    expect(queuedRatingSave(Q, ADA, { neatness: '9' }, { cells: { neatness: '3' }, version: 2 })).toBeNull();
  });

  it('a comment row sends only the fields changed from the row it was made on', () => {
    const base = { form_comment: '', principal_comment: 'Well done', days_present: '', days_absent: '', promotion_override: '', override_reason: '' };
    expect(queuedCommentSave(Q, ADA, { ...base, form_comment: ' Kind. ', days_absent: '3' }, { cells: base, version: 1 })).toEqual({
      ...Q,
      rows: [{ admission_number: ADA, version: 1, form_comment: 'Kind.', days_absent: 3 }],
    });
  });
});

describe('sent with no sheet open (flushOutbox)', () => {
  it('a rating row typed offline is sent once on its version; the kept copy takes the stored row', async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue(ratingSheet);
    await fetchSheet(ratingSheetQuery(Q));
    expect(get).toHaveBeenCalledTimes(1);
    await keptCopy(RATINGS_KIND);
    await queue(RATINGS_KIND, { neatness: '4', music: '2' }, { cells: { neatness: '3', music: '' }, version: 2 });
    expect(await unsentRows(USER)).toHaveLength(1);

    const put = vi
      .spyOn(api, 'put')
      .mockResolvedValue({ rows: [{ admission_number: ADA, version: 3, ratings: { neatness: 4, music: 2 } }] });
    expect(await flushOutbox(USER)).toEqual({ sent: 1, failed: [] });
    expect(put).toHaveBeenCalledTimes(1);
    expect(put.mock.calls[0]!.slice(0, 2)).toEqual([
      '/class-ratings/',
      { ...Q, rows: [{ admission_number: ADA, ratings: { neatness: 4, music: 2 }, version: 2 }] },
    ]);
    expect(await unsentRows(USER)).toEqual([]);
    // Flushed again: nothing left to send.
    expect(await flushOutbox(USER)).toEqual({ sent: 0, failed: [] });
    expect(put).toHaveBeenCalledTimes(1);

    // Offline, the sheet opens from the kept copy, which holds the stored row and its version.
    get.mockRejectedValue(new ApiError(0, null, 'network'));
    const copy = await fetchSheet<RatingSheet>(ratingSheetQuery(Q));
    expect(keptAt(copy)).not.toBeNull();
    expect(copy.rows).toEqual([{ admission_number: ADA, name: 'Ada Eze', ratings: { neatness: 4, music: 2 }, version: 3 }]);
  });

  it('a comment row is sent once with its changed fields; a conflict keeps it queued (its sheet shows both values when opened)', async () => {
    const sheet = { ...ratingSheet, times_opened: null, require_comments: false, rows: [commentRow({})] } as unknown as CommentSheet;
    vi.spyOn(api, 'get').mockResolvedValue(sheet);
    await fetchSheet(commentSheetQuery(Q));
    await keptCopy(COMMENTS_KIND);
    const base = { form_comment: '', principal_comment: 'Well done', days_present: '', days_absent: '', promotion_override: '', override_reason: '' };
    await queue(COMMENTS_KIND, { ...base, form_comment: 'Careful and kind.' }, { cells: base, version: 1 });

    const put = vi.spyOn(api, 'put').mockRejectedValueOnce(new ApiError(409, { detail: 'changed', code: 'changed_by_other' }));
    const refused = await flushOutbox(USER);
    expect(refused.sent).toBe(0);
    expect(refused.failed).toHaveLength(1);
    expect(await unsentRows(USER)).toHaveLength(1);

    put.mockResolvedValueOnce({ rows: [commentRow({ form_comment: 'Careful and kind.', version: 2 })] });
    expect(await flushOutbox(USER)).toEqual({ sent: 1, failed: [] });
    expect(put).toHaveBeenCalledTimes(2);
    expect(put.mock.calls[1]!.slice(0, 2)).toEqual([
      '/class-comments/',
      { ...Q, rows: [{ admission_number: ADA, version: 1, form_comment: 'Careful and kind.' }] },
    ]);
    expect(await unsentRows(USER)).toEqual([]);
    const kept = (await sheetCache.list<CommentSheet>(USER, COMMENTS_KIND))[0]!.data;
    expect(kept.rows[0]).toMatchObject({ form_comment: 'Careful and kind.', principal_comment: 'Well done', version: 2 });
    expect(offlineScope()).toEqual({ user: USER, term: '3:1st' });
  });
});
