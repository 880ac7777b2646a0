import type { FastifyRequest } from 'fastify';
import { ONLINE_PAYMENT_MESSAGES } from '@portal/domain';
import type { Config } from '../config';
import { HttpError } from './errors';

/** Loopback names: a return address on them can only lead back to the payer's own machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * Whether a Host header names this server as configured: a loopback name
 * (any port: dev proxies sit on other ports), the configured HOST at the configured PORT, or an
 * ALLOWED_HOSTS entry (`name` for any port, `name:port` for that port). Anything else is refused.
 */
export function hostAllowed(hostHeader: string, config: Pick<Config, 'host' | 'port' | 'allowedHosts'>, protocol = 'http'): boolean {
  // A bare host[:port] only: nothing the URL parser would rewrite (userinfo, paths, odd characters).
  const m = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i.exec(hostHeader);
  if (!m?.[1]) return false;
  const name = m[1].toLowerCase();
  const port = m[2] ? Number(m[2]) : protocol === 'https' ? 443 : 80;
  if (LOOPBACK.has(name)) return true;
  const configured = config.host.toLowerCase();
  if (!WILDCARD.has(configured) && name === configured && (config.port === 0 || port === config.port)) return true;
  return config.allowedHosts.some((entry) => entry === name || entry === `${name}:${port}`);
}

/**
 * The origin payment addresses (provider callback, simulator checkout and return) are built on:
 * PUBLIC_URL when configured (always, in production), else this request's origin if its Host is
 * one the server is configured to answer for; otherwise 400, never an address on someone else's host.
 */
export function paymentOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'allowedHosts'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = request.host;
  if (!host || !hostAllowed(host, config, request.protocol)) {
    request.log.warn({ event: 'payment_host_refused', host: String(host).slice(0, 100) }, 'payment address refused for this Host');
    throw new HttpError(400, { detail: ONLINE_PAYMENT_MESSAGES.hostNotAllowed });
  }
  return `${request.protocol}://${host.toLowerCase()}`;
}
