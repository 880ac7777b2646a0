import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  AUTH_MESSAGES,
  PEOPLE_MESSAGES,
  signInIdText,
  type LoginData,
  type Me,
  type ParentLoginData,
  type ParentMe,
  type ParentSignInId,
  type Role,
  type SignInBlock,
  type SignInBlockKind,
  type SignInId,
} from '@portal/domain';
import type { Config } from '../../config';
import { HttpError, unauthorized } from '../../http/errors';
import { assertPasswordAllowed } from '../../lib/password-policy';
import { burnPasswordCheck, hashPassword, hasFullCost, verifyPassword } from '../../lib/passwords';
import { hashToken, newFamilyId, newRefreshToken, type TokenService } from '../../lib/tokens';
import type { AccountRow, AuthRepository } from './auth.repository';
import {
  addressKey,
  deviceKey,
  keysOfSubject,
  limitsOf,
  parseSignInKey,
  passwordChangeKey,
  SIGN_IN_KEY_PREFIXES,
  untrustedKey,
} from './sign-in-limits';

/** One sign-in: through which role's endpoint, who (an email, or a student's admission number), from where. */
export interface SignInRequest {
  role: Role;
  /** An email, a student's admission number, or a parent's phone. */
  id: SignInId | ParentSignInId;
  password: string;
  ip: string;
  /** The browser's device cookie, if it sent one (http/device-cookie.ts). */
  deviceToken?: string;
}

/** Skew tolerated between instances' clocks (as for tokens): a stored time further ahead is a clock step. */
const CLOCK_TOLERANCE_MS = 30_000;

/** The login envelope's failure, as the client reads it (it shows non_field_errors[0]). */
export class LoginFailure extends HttpError {
  constructor(status: number, message: string) {
    super(status, { status: 'error', data: null, message, errors: { non_field_errors: [message] }, detail: message });
  }
}

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly tokens: TokenService,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    /** The clock (buildApp's): tokens, refresh tokens and sign-in limits are all measured from it. */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Signs in through one role's endpoint; an account of another role is refused like a bad password.
   * Each attempt is reserved on its counters before the password is checked, so parallel guesses
   * cannot get past a limit, on any number of instances (the counters are database rows):
   *
   * - from a browser holding the account's device cookie, per device: its owner mistyping on their
   *   own phone blocks only that phone, briefly;
   * - from any other browser, per account and address (a stranger blocks only their own address) AND
   *   per account over all addresses together (a guesser with 40 addresses gets the account's
   *   budget, not 5 guesses each); past it such browsers are refused for the account for a while,
   *   while the owner's known browser still gets in (OWASP "device cookies").
   *
   * The counters are keyed by the account, so its email and its admission number count as one; an
   * id naming no account is counted under its own text, with the same limits and answers.
   */
  async login(attempt: SignInRequest): Promise<{ data: LoginData | ParentLoginData; deviceToken: string }> {
    const { role, password, ip } = attempt;
    const account = await this.accountOf(attempt.id);
    // An account without an email (a student) was found by its admission number: counted under its key.
    // A parent without an email was found by their phone: counted under it.
    const subject = account?.email ?? (attempt.id.kind === 'phone' ? attempt.id.phone : signInIdText(attempt.id));
    const device =
      account && attempt.deviceToken ? await this.tokens.verifyDevice(attempt.deviceToken, this.config.deviceCookieSeconds) : null;
    // A device cookie counts only for the account it was issued to: a forged one, or another account's, is none.
    const deviceId = device && device.userId === account?.id ? device.deviceId : null;
    const counters: { key: string; kind: SignInBlockKind }[] = deviceId
      ? [{ key: deviceKey(subject, deviceId), kind: 'device' }]
      : [
          { key: addressKey(subject, ip), kind: 'address' },
          { key: untrustedKey(subject), kind: 'untrusted_clients' },
        ];
    const now = new Date(this.now());
    const reserved: string[] = [];
    for (const c of counters) {
      if (!(await this.repo.reserveAttempt(c.key, now, limitsOf(c.kind, this.config)))) {
        for (const key of reserved) await this.repo.releaseAttempt(key);
        this.log.warn({ event: 'login_throttled', role, ip, counter: c.kind }, 'sign-in refused: too many wrong passwords');
        throw new LoginFailure(429, AUTH_MESSAGES.tooManyAttempts);
      }
      reserved.push(c.key);
    }
    const ok = account ? await verifyPassword(account.password_hash, password) : false;
    const leftAs =
      account && ok && account.role === role && account.disabled && role === 'student'
        ? await this.repo.studentLeftAs(account.id)
        : undefined;
    if (account && leftAs) {
      // The right password of a withdrawn or graduated (alumni) student: say why, instead of "invalid".
      this.log.info({ event: `login_refused_${leftAs}`, role, ip, userId: account.id }, `sign-in refused: student ${leftAs}`);
      throw new LoginFailure(403, leftAs === 'graduated' ? PEOPLE_MESSAGES.graduatedCannotSignIn : PEOPLE_MESSAGES.withdrawnCannotSignIn);
    }
    if (!account || !ok || account.role !== role || account.disabled) {
      // Every failure costs one full-cost argon2id verification, whatever the account: unknown
      // emails and cheaply hashed (imported) accounts get a dummy one on top.
      if (!account || !hasFullCost(account.password_hash)) await burnPasswordCheck(password);
      const failedAt = new Date(this.now());
      for (const c of counters) {
        const { max, blockSeconds } = limitsOf(c.kind, this.config);
        await this.repo.blockIfExhausted(c.key, failedAt, max, blockSeconds);
      }
      this.log.info({ event: 'login_failed', role, ip, known: Boolean(account), trustedDevice: Boolean(deviceId) }, 'sign-in failed');
      throw new LoginFailure(401, AUTH_MESSAGES.invalidCredentials);
    }
    // The right password: this browser's and this address's counts start again; the account-wide
    // count of untrusted failures only gets this attempt back, so the owner signing in somewhere new
    // never refills a guesser's budget.
    for (const c of counters) {
      if (c.kind === 'untrusted_clients') await this.repo.releaseAttempt(c.key);
      else await this.repo.clearThrottle(c.key);
    }
    // Whoever signs in with the password starts with a fresh allowance of password-change attempts.
    await this.repo.clearThrottle(passwordChangeKey(account.id));
    const pair = await this.issuePair(account.id, role, account.token_version, newFamilyId());
    const profile = await this.repo.profileOf(account.id, role);
    this.log.info({ event: 'login_succeeded', role, userId: account.id, ip, trustedDevice: Boolean(deviceId) }, 'signed in');
    const deviceToken = await this.tokens.signDevice(
      { userId: account.id, deviceId: deviceId ?? randomBytes(16).toString('base64url') },
      this.config.deviceCookieSeconds,
    );
    const common = { ...pair, first_name: profile.first_name, must_change_password: account.must_change_password === 1 };
    if (role === 'admin') return { data: { ...common, username: profile.public_id }, deviceToken };
    if (role === 'staff') return { data: { ...common, staff_id: profile.public_id }, deviceToken };
    if (role === 'parent') {
      await this.repo.setParentSignedIn(account.id, new Date(this.now()).toISOString());
      const name = `${profile.first_name} ${profile.last_name}`.trim();
      return { data: { ...common, name, phone: profile.public_id }, deviceToken };
    }
    return { data: { ...common, admission_number: profile.public_id }, deviceToken };
  }

  /** The account a sign-in id names: by email, or (students) by admission number; none when two numbers share its key. */
  private async accountOf(id: SignInId | ParentSignInId): Promise<AccountRow | undefined> {
    if (id.kind === 'email') return this.repo.findAccountByEmail(id.email);
    if (id.kind === 'phone') return this.repo.findParentAccountByPhone(id.phone);
    const found = await this.repo.findStudentAccountsByAdmissionKey(id.key);
    if (found.length > 1) this.log.warn({ event: 'admission_number_ambiguous' }, 'two admission numbers differ only by separators');
    return found.length === 1 ? found[0] : undefined;
  }

  /**
   * Sign-in blocks in force, for the admin: which account, which counter (one address, every
   * unknown browser, or one device), until when. A block ending further ahead than its own length
   * from now was set while the clock ran fast: it is not in force (reserveAttempt ignores it too).
   */
  async listSignInBlocks(): Promise<SignInBlock[]> {
    const now = this.now();
    const rows = await this.repo.listSignInBlocks(new Date(now), SIGN_IN_KEY_PREFIXES);
    const blocks: SignInBlock[] = [];
    for (const r of rows) {
      const parsed = parseSignInKey(r.key);
      if (!parsed || !r.blocked_until) continue;
      if (Date.parse(r.blocked_until) > now + limitsOf(parsed.kind, this.config).blockSeconds * 1000 + CLOCK_TOLERANCE_MS) continue;
      blocks.push({ email: parsed.subject, kind: parsed.kind, address: parsed.address, blocked_until: r.blocked_until });
    }
    return blocks;
  }

  /** Clears the sign-in blocks of an account: from one address, or all of them (every counter). Audited. */
  async clearSignInBlocks(actorUserId: number, email: string, address?: string): Promise<number> {
    const cleared = await this.repo.clearSignInBlocks(
      address ? [{ key: addressKey(email, address) }] : keysOfSubject(email),
      new Date(this.now()),
    );
    await this.repo.audit({
      actorUserId,
      action: 'clear_sign_in_block',
      entity: 'sign_in_block',
      entityId: email,
      after: { address: address ?? null, cleared },
    });
    this.log.info({ event: 'sign_in_block_cleared', userId: actorUserId, cleared }, 'sign-in block cleared');
    return cleared;
  }

  private async issuePair(userId: number, role: Role, tokenVersion: number, familyId: string) {
    const access = await this.tokens.signAccess({ userId, role, tokenVersion, familyId });
    const refresh = newRefreshToken();
    const now = this.now();
    const expiresAt = new Date(now + this.config.refreshTokenSeconds * 1000).toISOString();
    await this.repo.storeRefreshToken(userId, familyId, refresh.hash, expiresAt, new Date(now).toISOString());
    return { access, refresh: refresh.token };
  }

  /** Rotates a refresh token. A spent or revoked one is a replay: the whole family is revoked. */
  async refresh(token: string): Promise<{ access: string; refresh: string }> {
    const row = await this.repo.findRefreshToken(hashToken(token));
    if (!row) throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    if (row.used_at || row.revoked_at) {
      await this.repo.revokeFamily(row.family_id);
      this.log.warn({ event: 'refresh_reuse', userId: row.user_id }, 'refresh token reused: family revoked');
      throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    }
    // Alive for its configured length measured from now: a token stored while the clock ran fast
    // (created "in the future", expiring beyond now + its life) is refused like an expired one.
    const now = this.now();
    const life = this.config.refreshTokenSeconds * 1000;
    const expires = Date.parse(row.expires_at);
    if (expires <= now || expires > now + life + CLOCK_TOLERANCE_MS || Date.parse(row.created_at) > now + CLOCK_TOLERANCE_MS) {
      throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    }
    const account = await this.repo.findAccountById(row.user_id);
    if (!account || account.disabled) {
      await this.repo.revokeFamily(row.family_id);
      throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    }
    const access = await this.tokens.signAccess({
      userId: account.id,
      role: account.role,
      tokenVersion: account.token_version,
      familyId: row.family_id,
    });
    const next = newRefreshToken();
    const expiresAt = new Date(now + life).toISOString();
    const rotated = await this.repo.rotateRefreshToken(row.id, {
      userId: account.id,
      familyId: row.family_id,
      hash: next.hash,
      expiresAt,
      createdAt: new Date(now).toISOString(),
    });
    if (!rotated) {
      await this.repo.revokeFamily(row.family_id);
      this.log.warn({ event: 'refresh_reuse', userId: row.user_id }, 'refresh token reused concurrently: family revoked');
      throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    }
    return { access, refresh: next.token };
  }

  /**
   * Ends the caller's own sign-in session: the family of the access token. A refresh token sent
   * along is honoured only when it belongs to that same session, so nobody can end someone else's
   * session by posting their refresh token.
   */
  async logout(familyId: string, refresh?: string): Promise<void> {
    await this.repo.revokeFamily(familyId);
    if (refresh) {
      const row = await this.repo.findRefreshToken(hashToken(refresh));
      if (row && row.family_id !== familyId) {
        this.log.warn({ event: 'logout_foreign_refresh' }, 'logout with a refresh token of another session: ignored');
      }
    }
  }

  /**
   * Sets a new password, ends every other session and returns a fresh pair for this one. Wrong
   * current passwords are limited per account (reserved before the check, like sign-in); the one
   * that reaches the limit ends this session, so a stolen access token cannot keep guessing.
   */
  async changePassword(userId: number, familyId: string, oldPassword: string, newPassword: string) {
    const limits = limitsOf('password_change', this.config);
    const key = passwordChangeKey(userId);
    const endSession = async () => {
      await this.repo.revokeFamily(familyId);
      this.log.warn({ event: 'password_change_locked', userId }, 'too many wrong current passwords: session ended');
      return unauthorized(AUTH_MESSAGES.passwordChangeTooManyFailures);
    };
    if (!(await this.repo.reserveAttempt(key, new Date(this.now()), limits))) throw await endSession();
    const account = await this.repo.findAccountById(userId);
    if (!account) throw unauthorized(AUTH_MESSAGES.invalidToken);
    if (!(await verifyPassword(account.password_hash, oldPassword))) {
      if (await this.repo.blockIfExhausted(key, new Date(this.now()), limits.max, limits.blockSeconds)) throw await endSession();
      throw new HttpError(400, { old_password: [AUTH_MESSAGES.oldPasswordWrong] });
    }
    await this.repo.clearThrottle(key);
    if (oldPassword === newPassword) throw new HttpError(400, { new_password: [AUTH_MESSAGES.passwordSameAsOld] });
    assertPasswordAllowed(newPassword, { email: account.email, schoolName: await this.repo.schoolName() }, 'new_password');
    await this.repo.setPassword(userId, await hashPassword(newPassword), false);
    await this.repo.revokeAllForUser(userId);
    this.log.info({ event: 'password_changed', userId }, 'password changed');
    return this.issuePair(userId, account.role, account.token_version + 1, newFamilyId());
  }

  async me(userId: number): Promise<Me | ParentMe> {
    const account = await this.repo.findAccountById(userId);
    if (!account) throw unauthorized(AUTH_MESSAGES.invalidToken);
    if (account.role === 'parent') return this.parentMe(account);
    const p = await this.repo.profileOf(userId, account.role);
    return {
      id: account.id,
      role: account.role,
      email: account.email,
      first_name: p.first_name,
      last_name: p.last_name,
      must_change_password: account.must_change_password === 1,
      public_id: p.public_id,
    };
  }

  /** GET /api/me/ of a parent: the account, the parent's record and the children linked. */
  private async parentMe(account: AccountRow): Promise<ParentMe> {
    const { parent, children } = await this.repo.parentOf(account.id);
    const name = parent?.name.trim() ?? '';
    const space = name.indexOf(' ');
    return {
      id: account.id,
      role: 'parent',
      email: account.email,
      first_name: space < 0 ? name : name.slice(0, space),
      last_name: space < 0 ? '' : name.slice(space + 1).trim(),
      must_change_password: account.must_change_password === 1,
      parent: { name, phone: parent?.phone ?? '', email: parent?.email ?? null },
      children,
    };
  }
}
