import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { AccessClaims, TokenService } from '../lib/tokens';

/**
 * The `portal_view` cookie: lets the server render a signed-in user's page (http/server-pages.ts)
 * when the browser asks for the document, before the app's JavaScript, which keeps the API tokens in
 * localStorage, has run (docs/decisions/013-server-rendered-report-card.md). HttpOnly, so no script
 * can read it; never accepted by the API, so it cannot be used to change anything (no CSRF); SameSite
 * Lax, so a link to the card followed from a message app still opens it rendered.
 */
export const VIEW_COOKIE = 'portal_view';

function attributes(config: Config) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl?.startsWith('https://') ?? false,
  };
}

/** Set beside every new token pair (sign-in, refresh, password change): the cookie follows the sign-in session. */
export async function setViewCookie(reply: FastifyReply, tokens: TokenService, config: Config, access: string): Promise<void> {
  const claims = await tokens.verifyAccess(access);
  if (!claims) return;
  void reply.setCookie(VIEW_COOKIE, await tokens.signView(claims), { ...attributes(config), maxAge: config.refreshTokenSeconds });
}

export function clearViewCookie(reply: FastifyReply, config: Config): void {
  void reply.clearCookie(VIEW_COOKIE, attributes(config));
}

/** The claims of the request's page-view cookie, or null (none, forged, expired). */
export async function viewClaims(request: FastifyRequest, tokens: TokenService): Promise<AccessClaims | null> {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return null;
  const token = request.server.parseCookie(header)[VIEW_COOKIE];
  if (!token || token.length > 4096) return null;
  return tokens.verifyView(token);
}
