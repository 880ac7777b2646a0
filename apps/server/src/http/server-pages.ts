import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from '../lib/tokens';
import { withSharedGuardLookups } from './auth';
import { viewClaims } from './view-cookie';

/**
 * Signed-in pages rendered on the server (docs/decisions/013-server-rendered-report-card.md). The
 * web build writes the renderer (apps/web/src/ssr/render-page.tsx) to `server-pages/render-page.js`
 * under its output; this loads it and gives it the request's user through the `portal_view` cookie.
 * The page's data comes from the API itself, asked inside the process as that user with a token
 * made for the render: the API's own rules (roles, ownership, release, revoked sessions) decide
 * what the page may show, and nothing here repeats them.
 */
export const SERVER_PAGES_MODULE = path.join('server-pages', 'render-page.js');

interface Renderer {
  serverRenderedPaths: string[];
  renderPage(url: string, api: typeof fetch): Promise<{ html: string; stateScript: string } | null>;
}

/**
 * The card's PDF as a link that works before the app starts (and without JavaScript): the signed-in
 * user's page-view cookie asks the API's own PDF route, whose rules decide (docs/decisions/049).
 */
export const CARD_PDF_PAGE = '/report-card.pdf';
const CARD_PDF_API = '/api/report-card/pdf/';

export interface ServerPages {
  /** Paths that may be rendered on the server (their answer varies with the cookie). */
  paths: Set<string>;
  /**
   * `CARD_PDF_PAGE?<query>` answered by the API's PDF route as the cookie's user: its status, type,
   * disposition and bytes; null without a valid cookie.
   */
  cardPdf(request: FastifyRequest): Promise<{ status: number; type: string; disposition?: string; body: Buffer } | null>;
  /** The page for this request rendered as its signed-in user, or null: the app's plain index.html then. */
  render(request: FastifyRequest): Promise<{ html: string; stateScript: string } | null>;
}

const isRenderer = (m: unknown): m is Renderer =>
  !!m &&
  typeof (m as Renderer).renderPage === 'function' &&
  Array.isArray((m as Renderer).serverRenderedPaths) &&
  (m as Renderer).serverRenderedPaths.every((p) => typeof p === 'string');

/** Loads the build's renderer; null when the build has none (an older build: pages are rendered in the browser). */
export async function loadServerPages(
  app: FastifyInstance,
  dist: string,
  tokens: TokenService,
  options: { sharedLookups?: boolean } = {},
): Promise<ServerPages | null> {
  const file = path.join(dist, SERVER_PAGES_MODULE);
  if (!existsSync(file)) return null;
  const renderer: unknown = await import(pathToFileURL(file).href);
  if (!isRenderer(renderer)) {
    app.log.warn({ event: 'server_pages_invalid', file }, 'The web build’s page renderer is not usable: pages render in the browser');
    return null;
  }
  return {
    paths: new Set(renderer.serverRenderedPaths),
    async cardPdf(request) {
      const claims = await viewClaims(request, tokens);
      if (!claims) return null;
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const res = await app.inject({
        method: 'GET',
        url: `${CARD_PDF_API}${query}`,
        headers: { accept: 'application/pdf, application/json', authorization: `Bearer ${await tokens.signAccess(claims)}` },
      });
      const type = res.headers['content-type'];
      const disposition = res.headers['content-disposition'];
      return {
        status: res.statusCode,
        type: typeof type === 'string' ? type : 'application/octet-stream',
        ...(typeof disposition === 'string' ? { disposition } : {}),
        body: res.rawPayload,
      };
    },
    async render(request) {
      const claims = await viewClaims(request, tokens);
      if (!claims) return null;
      const authorization = `Bearer ${await tokens.signAccess(claims)}`;
      // The renderer's API calls: reads only, answered by this process's own routes.
      const api: typeof fetch = async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if ((init?.method ?? 'GET') !== 'GET' || !url.startsWith('/api/')) throw new Error(`server pages only read the API (${url})`);
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'application/json', authorization } });
        const type = res.headers['content-type'];
        return new Response(res.body, { status: res.statusCode, headers: typeof type === 'string' ? { 'content-type': type } : {} });
      };
      // One page's calls read the signed-in account once (docs/decisions/049), unless an A/B benchmark turned that off.
      const render = () => renderer.renderPage(request.url, api);
      try {
        return await (options.sharedLookups === false ? render() : withSharedGuardLookups(render));
      } catch (err) {
        request.log.warn({ event: 'server_page_failed', err }, 'Rendering the page on the server failed: the browser renders it');
        return null;
      }
    },
  };
}
