import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AUTH_MESSAGES, BURSARY_MESSAGES, PASSWORD_CHANGE_REQUIRED_CODE, type Role, type StaffCapability } from '@portal/domain';
import type { TokenService } from '../lib/tokens';
import { forbidden, HttpError, notFound, unauthorized } from './errors';

/**
 * Who may call a route: 'public', the roles allowed, or 'operator': whoever runs the portal, with
 * the METRICS_TOKEN bearer token (no user account, the admin included, reaches it). Every /api route must say.
 */
export type RouteAccess = 'public' | 'operator' | readonly Role[];

export interface AuthUser {
  id: number;
  role: Role;
  /** Null for a student without one. */
  email: string | null;
  mustChangePassword: boolean;
  familyId: string;
  /** Whether the account holds the route's capability (the admin always; false on routes needing none and for students). */
  capable: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Access rule enforced by the auth plugin. */
    auth?: RouteAccess;
    /**
     * A capability staff must hold besides the role (the admin holds every one), e.g. 'bursar'
     * with `auth: STAFF_OR_ADMIN`. Staff without it get 403 with the capability's message; a student
     * the role admits passes (what they may read is the service's rule, e.g. only their own statement).
     */
    capability?: StaffCapability;
    /** Allowed even while the user must change their password (change-password, me, logout). */
    allowPasswordChangePending?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export interface RouteInfo {
  method: string;
  url: string;
  auth: RouteAccess;
  capability?: StaffCapability;
}

/** Routes seen by the auth plugin, for the authorization-matrix test. */
export function routeTable(app: FastifyInstance): RouteInfo[] {
  return (app as unknown as { portalRoutes: RouteInfo[] }).portalRoutes;
}

/** One row of the guard's account lookup (`capable` only when a capability was asked for). */
export interface GuardAccountRow {
  id: number;
  role: Role;
  email: string | null;
  disabled: number;
  must_change_password: number;
  token_version: number;
  live: number;
  capable?: number;
}

/**
 * The guard's account lookup: the auth module's repository implements it (one compiled statement)
 * and the composition root hands it in, so http/ imports no module.
 */
export interface GuardAccounts {
  guardLookup(userId: number, familyId: string, capability?: StaffCapability): Promise<GuardAccountRow[]>;
}

const sharedLookups = new AsyncLocalStorage<Map<string, Promise<GuardAccountRow[]>>>();

/**
 * Runs `work` with the guard's account lookups shared between the requests it makes in this
 * process (`app.inject`): the server's page renderer (http/server-pages.ts) asks the API several
 * things as one user for one page, and each call re-read the same account row (docs/decisions/049).
 * Every call is still authenticated and authorized by the guard from that row (token version, role,
 * disabled, sign-in session live, capability); only the read is made once per page. Requests from
 * the network never run inside such a scope.
 */
export function withSharedGuardLookups<T>(work: () => Promise<T>): Promise<T> {
  return sharedLookups.run(new Map(), work);
}

export function registerAuth(
  app: FastifyInstance,
  accounts: GuardAccounts,
  tokens: TokenService,
  options: { docs?: 'public' | 'admin' | 'off'; operatorToken?: string } = {},
): void {
  const routes: RouteInfo[] = [];
  app.decorate('portalRoutes', routes);
  app.decorateRequest('user', null);

  // Compared as SHA-256 digests in constant time: equal lengths, and nothing learnt from timing.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const operatorDigest = options.operatorToken ? digest(options.operatorToken) : undefined;
  const operatorRefusal = (request: FastifyRequest): HttpError | undefined => {
    // Without a configured token the route does not exist for anyone.
    if (!operatorDigest) return notFound();
    const header = request.headers.authorization;
    if (!header) return unauthorized(AUTH_MESSAGES.notAuthenticated);
    const token = /^Bearer (\S{1,4096})$/.exec(header)?.[1];
    if (token && timingSafeEqual(digest(token), operatorDigest)) return undefined;
    request.log.info({ event: 'authentication_refused', route: request.routeOptions.url, operator: true }, 'authentication refused');
    return unauthorized(AUTH_MESSAGES.invalidToken);
  };
  const operatorGuard = (request: FastifyRequest): Promise<void> => {
    const refusal = operatorRefusal(request);
    return refusal ? Promise.reject(refusal) : Promise.resolve();
  };

  async function authenticate(request: FastifyRequest, capability: StaffCapability | undefined): Promise<AuthUser> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized(AUTH_MESSAGES.notAuthenticated);
    const match = /^Bearer ([A-Za-z0-9_\-.]{10,4096})$/.exec(header);
    if (!match?.[1]) throw unauthorized(AUTH_MESSAGES.invalidToken);
    const claims = await tokens.verifyAccess(match[1]);
    if (!claims) throw unauthorized(AUTH_MESSAGES.invalidToken);
    // One indexed lookup: the account still exists, is enabled, the token is not from before a
    // password change, and its sign-in session (refresh family) was not logged out.
    const shared = sharedLookups.getStore();
    const key = `${claims.userId}|${claims.familyId}|${capability ?? ''}`;
    let lookup = shared?.get(key);
    if (!lookup) {
      lookup = accounts.guardLookup(claims.userId, claims.familyId, capability);
      shared?.set(key, lookup);
    }
    const [row] = await lookup;
    if (!row || row.disabled || row.token_version !== claims.tokenVersion || row.role !== claims.role || Number(row.live) === 0) {
      throw unauthorized(AUTH_MESSAGES.invalidToken);
    }
    return {
      id: row.id,
      role: row.role,
      email: row.email,
      mustChangePassword: row.must_change_password === 1,
      familyId: claims.familyId,
      capable: row.role === 'admin' || (row.role === 'staff' && Number(row.capable) > 0),
    };
  }

  app.addHook('onRoute', (route) => {
    const url = route.url;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Every /api route, and every state-changing route anywhere (the simulator checkout once lived
    // outside /api, unguarded), says who may call it. Pages and files (GET) outside /api do not.
    // /api/docs (Swagger UI and its JSON) is registered by a plugin: public, or admins only (API_DOCS=admin).
    // A page outside /api that declares its access (/metrics) is guarded and listed like an /api route.
    const stateChanging = methods.some((m) => m !== 'GET' && m !== 'HEAD');
    const docs = url.startsWith('/api/docs');
    if ((docs && options.docs !== 'admin') || (!url.startsWith('/api') && !stateChanging && !route.config?.auth)) return;
    const access: RouteAccess | undefined = docs ? ['admin'] : route.config?.auth;
    if (!access) throw new Error(`Route ${String(route.method)} ${url} has no config.auth: say who may call it`);
    const capability = docs ? undefined : route.config?.capability;
    if (!docs)
      for (const m of methods) if (m !== 'HEAD') routes.push({ method: m, url, auth: access, ...(capability ? { capability } : {}) });
    if (access === 'public') return;
    const existing = route.onRequest;
    const list: onRequestHookHandler[] = existing ? (Array.isArray(existing) ? existing : [existing]) : [];
    if (access === 'operator') {
      route.onRequest = [...list, operatorGuard];
      return;
    }

    const allowPending = route.config?.allowPasswordChangePending === true;
    const guard = async (request: FastifyRequest): Promise<void> => {
      let user: AuthUser;
      try {
        user = await authenticate(request, capability);
      } catch (err) {
        // Refused authentications are logged (ASVS 16.3.2), never with the token itself.
        if (err instanceof HttpError) {
          request.log.info(
            { event: 'authentication_refused', route: url, hasCredentials: Boolean(request.headers.authorization) },
            'authentication refused',
          );
        }
        throw err;
      }
      request.user = user;
      // A pending password change comes first: until it is done, every call says so.
      if (user.mustChangePassword && !allowPending) {
        throw forbidden(AUTH_MESSAGES.passwordChangeRequired, PASSWORD_CHANGE_REQUIRED_CODE);
      }
      if (!access.includes(user.role)) {
        request.log.info({ event: 'authorization_refused', userId: user.id, role: user.role, route: url }, 'authorization refused');
        throw forbidden(AUTH_MESSAGES.forbidden);
      }
      if (capability && user.role === 'staff' && !user.capable) {
        request.log.info(
          { event: 'authorization_refused', userId: user.id, role: user.role, route: url, capability },
          'authorization refused',
        );
        throw forbidden(BURSARY_MESSAGES.bursarOnly);
      }
    };
    // Authenticate before the body is validated, so an anonymous caller learns nothing from 400s.
    route.onRequest = [...list, guard];
  });
}

/** The signed-in user of a guarded route (never null there). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(AUTH_MESSAGES.notAuthenticated);
  return request.user;
}

/**
 * The signed-in user as the teaching, results and attendance services take them: a new object of
 * the id and role alone, so that nothing else of the account travels into their rows or audits.
 */
export function currentActor(request: FastifyRequest): Pick<AuthUser, 'id' | 'role'> {
  const u = currentUser(request);
  return { id: u.id, role: u.role };
}
