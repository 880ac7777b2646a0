// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ASSESSMENT_MESSAGES,
  SCORE_CONFLICT_CODE,
  type ScoreConflict,
  type ScoreSheet,
  type ScoreSheetResult,
  type ScoreSheetSave,
} from '@portal/domain/assessment';
import type { GradeBand } from '@portal/domain/grading';
import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import { GRID_SCREEN_MESSAGES as G } from '@portal/domain/score-grid-screens';
import { ScoreGrid } from './score-grid';
import { useGrid } from './use-grid';

// The class grid with its engine, in a DOM, against a fake server: what a teacher on a phone meets
// when the network drops, comes back, or when they leave with rows unsaved.

const NAMES = ['Ebere Balogun', 'Tunde Okafor', 'Aisha Bello', 'Chidi Eze', 'Funke Ade', 'Musa Ibrahim', 'Ngozi Obi'];
const SCHEME = [
  { name: 'First CA', label: 'CA1', max: 20 },
  { name: 'Second CA', label: 'CA2', max: 20 },
  { name: 'Examination', label: 'Exam', max: 60 },
];
const BANDS: GradeBand[] = [
  { grade: 'A', min: 70, max: 100, remark: 'Excellent' },
  { grade: 'C', min: 50, max: 69.99, remark: 'Credit' },
  { grade: 'F', min: 0, max: 49.99, remark: 'Fail' },
];

const adm = (i: number) => `STU-${String(i + 1).padStart(4, '0')}`;

function sheetOf(results: Record<string, ScoreSheetResult | null> = {}): ScoreSheet {
  return {
    session: { id: 1, name: '2025/2026' },
    term: '1st',
    student_class: 'JSS 1A',
    subject: 'Mathematics',
    components: SCHEME,
    precision: 'whole',
    rows: NAMES.map((name, i) => ({ admission_number: adm(i), name, takes: true, result: results[adm(i)] ?? null, position: null })),
    stats: null,
    may_write: true,
    refusal: null,
    released: false,
  };
}

/** The fake server: stores rows with versions; `offline` makes every request fail as a dropped network does. */
const server = {
  offline: false,
  stored: new Map<string, ScoreSheetResult>(),
  puts: [] as ScoreSheetSave[],
};

function fakeFetch(_url: string, init?: RequestInit): Promise<Response> {
  if (server.offline) return Promise.reject(new TypeError('Failed to fetch'));
  const body = JSON.parse(init?.body as string) as ScoreSheetSave;
  server.puts.push(body);
  // A row saved on a version other than the stored one: the server's 409 with the row as stored now.
  const stale = body.rows.find((r) => (server.stored.get(r.admission_number)?.version ?? 0) !== r.version);
  if (stale) {
    const conflict: ScoreConflict = {
      detail: 'Changed by someone else',
      code: SCORE_CONFLICT_CODE,
      admission_number: stale.admission_number,
      current: server.stored.get(stale.admission_number) ?? null,
    };
    return Promise.resolve(new Response(JSON.stringify(conflict), { status: 409, headers: { 'content-type': 'application/json' } }));
  }
  const rows = body.rows.map((r) => {
    const before = server.stored.get(r.admission_number);
    const values = Object.values(r.components).map((v) => (typeof v === 'number' ? v : 0));
    const result: ScoreSheetResult = {
      id: 1,
      components: r.components,
      total_only: false,
      score: values.reduce((a, b) => a + b, 0),
      grade: '',
      remarks: '',
      version: (before?.version ?? 0) + 1,
      updated_at: '2026-01-01T00:00:00Z',
      updated_by: 'Teacher',
    };
    server.stored.set(r.admission_number, result);
    return { admission_number: r.admission_number, name: '', takes: true, result, position: null };
  });
  return Promise.resolve(
    new Response(JSON.stringify({ rows, stats: null }), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
}

function Editor({ sheet }: { sheet: ScoreSheet }) {
  const grid = useGrid(sheet, '');
  return (
    <>
      <button type="button" onClick={grid.saveAll}>
        Save all
      </button>
      <p data-testid="grid-status">{grid.announcement}</p>
      <ScoreGrid sheet={sheet} grid={grid} bands={BANDS} column="CA1" onColumn={() => {}} />
    </>
  );
}

/** happy-dom's window size: the grid shows one component below 640 px. */
function setViewport(width: number) {
  (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({
    width,
    height: 740,
  });
}

/** The editor inside a router, with a link away: in-app navigation is what the leave guard meets. */
function renderGrid(sheet = sheetOf()) {
  const router = createMemoryRouter(
    [
      {
        path: '/score-sheet',
        element: (
          <>
            <Link to="/home">Home</Link>
            <Editor sheet={sheet} />
          </>
        ),
      },
      { path: '/home', element: <h1>Home page</h1> },
    ],
    { initialEntries: ['/score-sheet'] },
  );
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const cell = (label: string, name: string) => screen.getByLabelText<HTMLInputElement>(`${label} for ${name}`);
const statusOf = (i: number) => within(screen.getByTestId(`row-${adm(i)}`)).getByTestId('row-status');
const type = (label: string, name: string, value: string) => fireEvent.change(cell(label, name), { target: { value } });
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function setOnline(online: boolean) {
  server.offline = !online;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  server.offline = false;
  server.stored.clear();
  server.puts = [];
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  setViewport(1024);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

/** A row as stored by someone else (another teacher on another phone), version 1. */
function storedByOther(i: number, components: ScoreSheetResult['components']): ScoreSheetResult {
  const result: ScoreSheetResult = {
    id: 1,
    components,
    total_only: false,
    score: Object.values(components).reduce<number>((a, v) => a + (typeof v === 'number' ? v : 0), 0),
    grade: '',
    remarks: '',
    version: 1,
    updated_at: '2026-01-01T00:00:00Z',
    updated_by: 'Mrs Okafor',
  };
  server.stored.set(adm(i), result);
  return result;
}

describe('the score grid saving as the teacher types', () => {
  it('sends a row once, 2.5 s after its last keystroke, with the latest value', async () => {
    renderGrid();
    type('CA1', NAMES[0]!, '1');
    await advance(2000);
    type('CA1', NAMES[0]!, '12');
    await advance(2400);
    expect(server.puts).toHaveLength(0);
    expect(statusOf(0).textContent).not.toContain(ASSESSMENT_MESSAGES.gridSaved);
    await advance(100);
    expect(server.puts.map((p) => p.rows)).toEqual([[{ admission_number: adm(0), components: { CA1: 12 }, version: 0 }]]);
    expect(statusOf(0).textContent).toContain(ASSESSMENT_MESSAGES.gridSaved);
  });

  /** The first row typed as 12 while another teacher stored 18: the conflict panel once the save is answered. */
  async function conflictOnFirstRow() {
    renderGrid();
    storedByOther(0, { CA1: 18 });
    type('CA1', NAMES[0]!, '12');
    await advance(2600);
    return screen.getByTestId('conflict');
  }

  it('keeps both values on a conflict; "Keep mine" sends mine on the stored version', async () => {
    const conflict = await conflictOnFirstRow();
    expect(conflict.textContent).toContain(ASSESSMENT_MESSAGES.rowConflict(NAMES[0]!));
    expect(conflict.textContent).toContain('changed by Mrs Okafor');
    expect(statusOf(0).textContent).toContain(ASSESSMENT_MESSAGES.gridConflict);
    expect(cell('CA1', NAMES[0]!).value).toBe('12');
    expect(server.puts).toHaveLength(1);

    fireEvent.click(within(conflict).getByRole('button', { name: ASSESSMENT_MESSAGES.gridKeepMine }));
    await advance(0);
    expect(server.puts.at(-1)!.rows).toEqual([{ admission_number: adm(0), components: { CA1: 12 }, version: 1 }]);
    expect(server.stored.get(adm(0))).toMatchObject({ components: { CA1: 12 }, version: 2 });
    expect(statusOf(0).textContent).toContain(ASSESSMENT_MESSAGES.gridSaved);
    expect(screen.queryByTestId('conflict')).toBeNull();
  });

  it('on a conflict, "Use theirs" puts the stored value in the cell and sends nothing', async () => {
    const conflict = await conflictOnFirstRow();
    fireEvent.click(within(conflict).getByRole('button', { name: ASSESSMENT_MESSAGES.gridUseTheirs }));
    await advance(5000);
    expect(cell('CA1', NAMES[0]!).value).toBe('18');
    expect(server.puts).toHaveLength(1);
    expect(server.stored.get(adm(0))).toMatchObject({ components: { CA1: 18 }, version: 1 });
    expect(screen.queryByTestId('conflict')).toBeNull();
  });
});

describe('the score grid when the network drops', () => {
  it('saves six scores typed offline on its own once the browser is back online', async () => {
    renderGrid();
    act(() => setOnline(false));
    for (let i = 0; i < 6; i++) type('CA1', NAMES[i]!, String(10 + i));
    await advance(2600);
    for (let i = 0; i < 6; i++) expect(statusOf(i).textContent).toContain(ASSESSMENT_MESSAGES.gridFailed);
    expect(server.puts).toHaveLength(0);

    act(() => setOnline(true));
    await advance(0);
    for (let i = 0; i < 6; i++) expect(statusOf(i).textContent).toContain(ASSESSMENT_MESSAGES.gridSaved);
    expect([...server.stored.entries()].map(([k, r]) => [k, r.components])).toEqual(
      Array.from({ length: 6 }, (_, i) => [adm(i), { CA1: 10 + i }]),
    );
  });

  it('retries a failed row on its own with backoff while the browser still says it is offline', async () => {
    renderGrid();
    act(() => setOnline(false));
    type('CA1', NAMES[0]!, '12');
    await advance(2600);
    expect(statusOf(0).textContent).toContain(ASSESSMENT_MESSAGES.gridFailed);
    const tries = () => vi.mocked(fetch).mock.calls.length;
    expect(tries()).toBe(1);
    await advance(2000);
    expect(tries()).toBe(2);
    // The network is back but no online event came: the next backoff step gets through.
    server.offline = false;
    await advance(4000);
    expect(tries()).toBe(3);
    expect(statusOf(0).textContent).toContain(ASSESSMENT_MESSAGES.gridSaved);
    expect(server.stored.get(adm(0))?.components).toEqual({ CA1: 12 });
  });

  it('"Save all" sends every failed row again at once', async () => {
    renderGrid();
    act(() => setOnline(false));
    for (let i = 0; i < 3; i++) type('CA1', NAMES[i]!, String(5 + i));
    await advance(2600);
    server.offline = false;
    fireEvent.click(screen.getByRole('button', { name: 'Save all' }));
    await advance(0);
    expect(server.stored.size).toBe(3);
    for (let i = 0; i < 3; i++) expect(statusOf(i).textContent).toContain(ASSESSMENT_MESSAGES.gridSaved);
  });

  it('asks before leaving the screen inside the app with failed rows, and stays when asked to', async () => {
    const router = renderGrid();
    act(() => setOnline(false));
    type('CA1', NAMES[0]!, '12');
    type('CA1', NAMES[1]!, '13');
    await advance(2600);
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    await advance(0);
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain(AUTOSAVE_MESSAGES.leaveNotSaved(2));
    expect(router.state.location.pathname).toBe('/score-sheet');
    fireEvent.click(within(dialog).getByRole('button', { name: AUTOSAVE_MESSAGES.stay }));
    await advance(0);
    expect(router.state.location.pathname).toBe('/score-sheet');
    expect(cell('CA1', NAMES[0]!).value).toBe('12');
  });

  it('leaves without asking once the rows waiting for their save are stored', async () => {
    const router = renderGrid();
    type('CA1', NAMES[0]!, '12');
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    await advance(0);
    expect(router.state.location.pathname).toBe('/home');
    expect(server.stored.get(adm(0))?.components).toEqual({ CA1: 12 });
  });

  it('warns before the page is closed or reloaded with an unsaved row', async () => {
    renderGrid();
    act(() => setOnline(false));
    type('CA1', NAMES[0]!, '12');
    await advance(2600);
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });
});

describe('the score grid on a phone', () => {
  beforeEach(() => setViewport(360));

  it('gives every score cell a number pad, and an ABS button for the cell last touched', async () => {
    renderGrid();
    const ca1 = cell('CA1', NAMES[2]!);
    expect(ca1.getAttribute('inputmode')).toBe('decimal');
    fireEvent.focus(ca1);
    const absent = screen.getByRole('button', { name: G.absentLabel(G.cellOf('CA1', NAMES[2]!)) });
    expect(absent.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(absent);
    expect(ca1.value).toBe('ABS');
    expect(absent.getAttribute('aria-pressed')).toBe('true');
    await advance(2600);
    expect(server.stored.get(adm(2))?.components).toEqual({ CA1: 'ABS' });
    // Pressed again, it clears the cell.
    fireEvent.click(absent);
    expect(ca1.value).toBe('');
  });

  it('fills all three pasted columns while it shows one, and says which are out of sight', async () => {
    renderGrid();
    expect(screen.queryByLabelText(`CA2 for ${NAMES[0]!}`)).toBeNull();
    fireEvent.paste(cell('CA1', NAMES[0]!), { clipboardData: { getData: () => '15\t12\t50\n18\t10\t40' } });
    expect(screen.getByTestId('grid-status').textContent).toBe(`${G.pasted(2, ['CA1', 'CA2', 'Exam'])} ${G.pastedHidden(['CA2', 'Exam'])}`);
    await advance(2600);
    expect(server.stored.get(adm(0))?.components).toEqual({ CA1: 15, CA2: 12, Exam: 50 });
    expect(server.stored.get(adm(1))?.components).toEqual({ CA1: 18, CA2: 10, Exam: 40 });
  });

  it('gives a row with CA1 alone a running total, but no grade and no position until every component is in', async () => {
    renderGrid();
    fireEvent.paste(cell('CA1', NAMES[0]!), { clipboardData: { getData: () => '7\n15\t12\t50' } });
    await advance(0);
    const row = (i: number) => within(screen.getByTestId(`row-${adm(i)}`));
    expect(row(0).getByTestId('row-total').textContent).toBe(`7… (${G.incomplete})`);
    expect(row(0).getByTestId('row-grade').textContent).toBe('');
    expect(row(0).getByTestId('row-position').textContent).toBe('');
    expect(row(1).getByTestId('row-total').textContent).toBe('77');
    expect(row(1).getByTestId('row-grade').textContent).toBe('A');
    expect(row(1).getByTestId('row-position').textContent).toBe('1');
    expect(screen.getByTestId('incomplete-note').textContent).toBe(G.incompleteNote);
  });
});
