import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * The device cookie (OWASP "slow down online guessing with device cookies"): set when a browser
 * signs in to an account with its password, a token signed with the server's key naming the account
 * and a random device id (TokenService.signDevice). At sign-in it only decides how wrong passwords are
 * counted: per device with it, per account across all addresses without it (auth.service.ts); it
 * signs nobody in. HttpOnly (no script needs it), SameSite Strict, sent only to the API, Secure in
 * production. One per browser: the last account signed in to.
 */
export const DEVICE_COOKIE = 'portal_device';

export function deviceTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || header.length > 8192) return undefined;
  const token = request.server.parseCookie(header)[DEVICE_COOKIE];
  return token && token.length <= 1024 ? token : undefined;
}

export function setDeviceCookie(reply: FastifyReply, config: Config, token: string): void {
  void reply.setCookie(DEVICE_COOKIE, token, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.production || (config.publicUrl?.startsWith('https://') ?? false),
    maxAge: config.deviceCookieSeconds,
  });
}
