import type { FastifyReply, FastifyRequest } from 'fastify';
import { VIEW_COOKIE } from '@portal/domain/auth-constants';
import type { Config } from '../config';
import type { AccessClaims, TokenService } from '../lib/tokens';

/**
 * The `portal_view` cookie: lets the server render a signed-in user's page (http/server-pages.ts)
 * when the browser asks for the document, before the app's JavaScript, which keeps the API tokens in
 * localStorage, has run (docs/decisions/013-server-rendered-report-card.md). Never accepted by the
 * API, so it cannot be used to change anything (no CSRF); SameSite Lax, so a link to the card
 * followed from a message app still opens it rendered. Not HttpOnly, on purpose: the app deletes it
 * when it signs out without reaching the server (a shared computer on a bad connection), and it
 * grants less than the API tokens a script can already read from localStorage.
 */
function attributes(config: Config) {
  return {
    path: '/',
    httpOnly: false,
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
