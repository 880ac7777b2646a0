import { createHash, randomBytes, randomUUID, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import type { Role } from '@portal/domain';

export interface AccessClaims {
  userId: number;
  role: Role;
  tokenVersion: number;
  familyId: string;
}

export interface DeviceClaims {
  userId: number;
  deviceId: string;
}

const ISSUER = 'school-portal';
/** Clock skew tolerated between instances, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** Short-lived HS256 access tokens; the algorithm is pinned on verification. */
export class TokenService {
  /**
   * The HMAC key, imported once: given raw bytes, jose imports a WebCrypto key on every sign and
   * verify, which cost ~7% of the CPU of a small authenticated read (bench/run.ts profile).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;
  constructor(
    secret: string,
    private readonly accessSeconds: number,
    /** The page-view token's life (the sign-in session's: the refresh token's). */
    private readonly viewSeconds = accessSeconds,
    /** The clock (ms since the epoch): buildApp's, so tests can step it as a wrong system clock would. */
    private readonly now: () => number = Date.now,
  ) {
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  async signAccess(c: AccessClaims): Promise<string> {
    return this.sign(c, 'access', this.accessSeconds);
  }

  /**
   * The page-view token of the `portal_view` cookie (http/view-cookie.ts): the same claims as an
   * access token, living as long as the sign-in session, accepted only to render a page on the
   * server (never by the API). Revocation works as for access tokens: the page's API calls check the
   * account and the sign-in session in the database.
   */
  async signView(c: AccessClaims): Promise<string> {
    return this.sign(c, 'view', this.viewSeconds);
  }

  private async sign(c: AccessClaims, typ: 'access' | 'view', seconds: number): Promise<string> {
    return this.signClaims({ role: c.role, tv: c.tokenVersion, fid: c.familyId, typ }, String(c.userId), seconds);
  }

  private async signClaims(payload: Record<string, unknown>, subject: string, seconds: number): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setJti(randomUUID())
      .setExpirationTime(iat + seconds)
      .sign(await this.key);
  }

  /**
   * The device cookie's token (http/device-cookie.ts): this browser once signed in to this account
   * with its password. Bound to the account (`sub`), naming the device (`did`); no other power.
   */
  async signDevice(d: DeviceClaims, seconds: number): Promise<string> {
    return this.signClaims({ did: d.deviceId, typ: 'device' }, String(d.userId), seconds);
  }

  /** The device token's claims, or null for anything that is not a valid, unexpired device token of ours. */
  async verifyDevice(token: string, lifeSeconds: number): Promise<DeviceClaims | null> {
    const payload = await this.verifiedPayload(token, lifeSeconds);
    if (!payload || payload.typ !== 'device' || typeof payload.did !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(payload.did)) return null;
    const userId = Number(payload.sub);
    return Number.isSafeInteger(userId) ? { userId, deviceId: payload.did } : null;
  }

  /**
   * The payload of a token signed with our key, within its life measured from now: exp and iat
   * required, iat not in the future (jose's maxTokenAge check), and no longer-lived than ours. Null otherwise.
   */
  private async verifiedPayload(token: string, lifeSeconds: number): Promise<JWTPayload | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        requiredClaims: ['exp', 'iat', 'sub'],
        maxTokenAge: lifeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.now()),
      });
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp - payload.iat > lifeSeconds) return null;
      if (!withinLife({ iat: payload.iat, exp: payload.exp }, Math.floor(this.now() / 1000), lifeSeconds)) return null;
      if (typeof payload.sub !== 'string') return null;
      return payload;
    } catch {
      return null;
    }
  }

  /**
   * Tokens whose signature was already checked, with their expiry. Verifying an HS256 signature
   * through WebCrypto is an async job that cost ~8% of the CPU of a small authenticated read
   * (bench/run.ts profile); a token's signature never changes, so the result is memoized. Only
   * tokens that verified are kept (a forged token can never enter), their life is checked on every hit
   * as verification checks it (expiry, issued-in-the-future, maximum age: `withinLife`),
   * and revocation is not affected: the auth guard still checks the account and sign-in session in
   * the database on every request. Bounded, so memory stays flat.
   */
  private readonly verified = {
    access: new Map<string, { claims: AccessClaims; iat: number; exp: number }>(),
    view: new Map<string, { claims: AccessClaims; iat: number; exp: number }>(),
  };
  private static readonly VERIFIED_MAX = 10_000;

  /** Returns the claims, or null for any token that is not a valid, unexpired access token of ours. */
  async verifyAccess(token: string): Promise<AccessClaims | null> {
    return this.verify(token, 'access', this.accessSeconds);
  }

  /** The same for a page-view token (`signView`); an access token is not one. */
  async verifyView(token: string): Promise<AccessClaims | null> {
    return this.verify(token, 'view', this.viewSeconds);
  }

  private async verify(token: string, typ: 'access' | 'view', lifeSeconds: number): Promise<AccessClaims | null> {
    const nowSeconds = Math.floor(this.now() / 1000);
    const verified = this.verified[typ];
    const hit = verified.get(token);
    if (hit) {
      // The same checks as verification, against the clock of now: a token issued while the clock ran
      // fast is "from the future" once it is corrected, and one older than its life is dead whatever its exp says.
      if (withinLife(hit, nowSeconds, lifeSeconds)) return hit.claims;
      verified.delete(token);
      return null;
    }
    // exp and iat are required, iat may not be in the future (jose's maxTokenAge check), and the
    // token may not claim to live longer than our own tokens do: a token that never expires, or
    // expires in a year, is refused even when signed with the real key.
    const payload = await this.verifiedPayload(token, lifeSeconds);
    if (!payload || payload.typ !== typ) return null;
    const role = payload.role;
    if (role !== 'admin' && role !== 'staff' && role !== 'student' && role !== 'parent') return null;
    if (typeof payload.tv !== 'number' || typeof payload.fid !== 'string') return null;
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId)) return null;
    const claims: AccessClaims = { userId, role, tokenVersion: payload.tv, familyId: payload.fid };
    if (verified.size >= TokenService.VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, iat: payload.iat!, exp: payload.exp! });
    return claims;
  }
}

/**
 * A token is alive at `nowSeconds` when it has not expired, was not issued in the future, and is not
 * older than the life our tokens have (each within the tolerated skew between instances).
 */
function withinLife(t: { iat: number; exp: number }, nowSeconds: number, lifeSeconds: number): boolean {
  return (
    t.exp > nowSeconds - CLOCK_TOLERANCE_SECONDS &&
    t.exp <= nowSeconds + lifeSeconds + CLOCK_TOLERANCE_SECONDS &&
    t.iat <= nowSeconds + CLOCK_TOLERANCE_SECONDS &&
    nowSeconds - t.iat <= lifeSeconds + CLOCK_TOLERANCE_SECONDS
  );
}

/** Refresh tokens are opaque random strings; only their SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newFamilyId(): string {
  return randomUUID();
}
