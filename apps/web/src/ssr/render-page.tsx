/**
 * The server's page renderer (docs/decisions/013-server-rendered-report-card.md): the pages a phone
 * opens most, rendered to HTML by the server with the signed-in user's data, so the card is on
 * screen when the document arrives instead of after the app's JavaScript and its API calls. Built
 * for Node beside the web app (vite.config.ts, `serverPages`) and loaded by the server
 * (apps/server/src/http/server-pages.ts). The browser then starts the app on the same data
 * (src/lib/server-state.ts), which replaces this HTML with the identical page in one frame.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server.browser';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider, dehydrate } from '@tanstack/react-query';
import type { Me } from '@portal/domain/auth';
import type { Role } from '@portal/domain/constants';
import { ANY_ROLE } from '../lib/roles';
import { setTransport } from '../lib/api-client';
import { renderingAs, type Session } from '../lib/auth-store';
import type { Ask } from '../lib/prefetch';
import { QUERY_DEFAULTS } from '../lib/query-client';
import { settingsQuery } from '../lib/school-settings';
import { ToastProvider } from '../lib/toast';
import { SERVER_STATE_ID, type ServerState } from '../lib/server-state';
import ReportCardPage from '../features/results/pages/report-card';
import { cardAddress, cardIsAsked, reportCardNeeds } from '../features/results/queries';

interface ServerPage {
  roles: readonly Role[];
  Page: ComponentType;
  /** The queries the page shows, asked for before it is rendered (the same its route's loader asks for). */
  needs: (ask: Ask, session: Session, params: URLSearchParams) => void;
  /**
   * Whether the address is worth rendering here: a page that would show only a form is not (what the
   * user typed into it before the app started would be replaced with the app's empty form).
   */
  worthRendering: (session: Session, params: URLSearchParams) => boolean;
}

/** The pages rendered on the server, by path. Any other path gets the app's plain index.html. */
const SERVER_PAGES: Record<string, ServerPage> = {
  '/report-card': {
    roles: ANY_ROLE,
    Page: ReportCardPage,
    needs: reportCardNeeds,
    worthRendering: (session, params) => cardIsAsked(cardAddress(params, session)),
  },
};

export const serverRenderedPaths = Object.keys(SERVER_PAGES);

/** Answers the app's API calls of one request inside the server, as the page's signed-in user. */
const requestTransport = new AsyncLocalStorage<typeof fetch>();
setTransport((input, init) => {
  const transport = requestTransport.getStore();
  if (!transport) return Promise.reject(new Error('an API call outside a page render'));
  return transport(input, init);
});

export interface RenderedPage {
  /** The inside of `<div id="root">`. */
  html: string;
  /** A `<script type="application/json">` element with the page's data for the app's first render. */
  stateScript: string;
}

/**
 * Renders `url` (a path and query) for the user `api` signs in as, or null when the page is not one
 * of the server's or any of its data could not be had: the browser then renders it as before.
 */
export async function renderPage(url: string, api: typeof fetch): Promise<RenderedPage | null> {
  const address = new URL(url, 'http://portal.invalid');
  const spec = SERVER_PAGES[address.pathname];
  if (!spec) return null;
  return requestTransport.run(api, async () => {
    const meAnswer = await api('/api/me/', { headers: { accept: 'application/json' } });
    if (!meAnswer.ok) return null;
    const me = (await meAnswer.json()) as Me;
    // A one-time password or another role's page: the app's guards send the user elsewhere.
    if (me.must_change_password || !spec.roles.includes(me.role)) return null;
    const session: Session = { role: me.role, name: me.first_name, publicId: me.public_id, mustChangePassword: false };
    if (!spec.worthRendering(session, address.searchParams)) return null;

    const qc = new QueryClient({ defaultOptions: { queries: { ...QUERY_DEFAULTS, retry: false } } });
    const asked: Promise<void>[] = [qc.prefetchQuery(settingsQuery)];
    spec.needs((options) => void asked.push(qc.prefetchQuery(options)), session, address.searchParams);
    await Promise.all(asked);
    // Refusals (not released yet, not found) and failures are the app's to show, with their messages.
    if (
      qc
        .getQueryCache()
        .getAll()
        .some((q) => q.state.status !== 'success')
    )
      return null;

    const html = renderingAs(session, () =>
      renderToString(
        <QueryClientProvider client={qc}>
          <ToastProvider>
            <MemoryRouter initialEntries={[url]}>
              <spec.Page />
            </MemoryRouter>
          </ToastProvider>
        </QueryClientProvider>,
      ),
    );
    const state: ServerState = { path: address.pathname, queries: dehydrate(qc) };
    qc.clear(); // its garbage-collection timers would keep the answers for minutes
    // JSON inside a script element: `<` escaped so no value can close the element or open a comment.
    const json = JSON.stringify(state)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
    return { html, stateScript: `<script type="application/json" id="${SERVER_STATE_ID}">${json}</script>` };
  });
}
