import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { GENERAL_MESSAGES } from '@portal/domain';
import type { Config } from '../config';

/** Written by the web build (apps/web/vite.config.ts, `routePreloads`): each screen's path → the chunks its page needs beyond the entry. */
const ROUTE_PRELOADS = 'route-preloads.json';
const CHUNK = /^\/assets\/[\w.-]+\.js$/;

/**
 * index.html for each screen's path, with `modulepreload` links for the chunks of its page: opened
 * by its address, a page's code then downloads and compiles beside the entry instead of after it.
 * Read once at start-up (a release restarts the server); a path not in the table gets index.html as
 * built. A route `/adminHomePage/*` covers the paths under it.
 */
export function pagesWithPreloads(dist: string): Map<string, string> {
  const table = path.join(dist, ROUTE_PRELOADS);
  const pages = new Map<string, string>();
  if (!existsSync(table)) return pages;
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  if (!index.includes('</head>')) return pages;
  const routes = JSON.parse(readFileSync(table, 'utf8')) as Record<string, unknown>;
  for (const [route, chunks] of Object.entries(routes)) {
    if (!Array.isArray(chunks)) continue;
    const links = chunks
      .filter((c): c is string => typeof c === 'string' && CHUNK.test(c))
      .map((c) => `    <link rel="modulepreload" crossorigin href="${c}">\n`)
      .join('');
    if (links) pages.set(route, index.replace('</head>', `${links}  </head>`));
  }
  return pages;
}

/** Serves the built SPA with history fallback; unknown /api paths stay JSON 404s. */
export function registerSpa(app: FastifyInstance, config: Config): void {
  const dist = config.webDist;
  const index = dist ? path.join(dist, 'index.html') : undefined;
  let pages = new Map<string, string>();
  if (dist && index && existsSync(index)) {
    pages = pagesWithPreloads(dist);
    void app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The web build writes .br/.gz copies of its text assets: sent to browsers that accept them.
      preCompressed: true,
      setHeaders(reply, file) {
        void reply.header('vary', 'Accept-Encoding');
        if (file.includes(`${path.sep}assets${path.sep}`)) void reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD') || !dist || !index || !existsSync(index)) {
      return reply.status(404).send({ detail: GENERAL_MESSAGES.notFound });
    }
    // The app's entry is revalidated on every visit, so a new release reaches phones at once.
    void reply.header('cache-control', 'no-cache');
    const page = pages.get(url) ?? pages.get(`${url.split('/').slice(0, 2).join('/')}/*`);
    if (page) return reply.type('text/html; charset=utf-8').send(page);
    return reply.sendFile('index.html', dist, { cacheControl: false });
  });
}
