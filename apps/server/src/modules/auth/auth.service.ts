import type { FastifyBaseLogger } from 'fastify';
import { AUTH_MESSAGES, PEOPLE_MESSAGES, type LoginData, type Me, type Role } from '@portal/domain';
import type { Config } from '../../config';
import { HttpError, unauthorized } from '../../http/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newFamilyId, newRefreshToken, type TokenService } from '../../lib/tokens';
import type { AuthRepository } from './auth.repository';

const THROTTLE_WINDOW_SECONDS = 15 * 60;

/** The login envelope's failure, as spec §3 describes it (the client shows non_field_errors[0]). */
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
  ) {}

  /** Signs in through one role's endpoint; an account of another role is refused like a bad password. */
  async login(role: Role, email: string, password: string, ip: string): Promise<LoginData> {
    const { perAccountFailures, perAccountBlockSeconds } = this.config.loginLimits;
    const key = `acct:${email}`;
    const throttle = await this.repo.getThrottle(key);
    if (throttle?.blocked_until && Date.parse(throttle.blocked_until) > Date.now()) {
      this.log.warn({ event: 'login_throttled', role, ip }, 'sign-in refused: account throttled');
      throw new LoginFailure(429, AUTH_MESSAGES.tooManyAttempts);
    }
    const account = await this.repo.findAccountByEmail(email);
    let ok = false;
    if (account) ok = await verifyPassword(account.password_hash, password);
    else await burnPasswordCheck(password);
    if (
      account &&
      ok &&
      account.role === role &&
      account.disabled &&
      role === 'student' &&
      (await this.repo.isWithdrawnStudent(account.id))
    ) {
      // The right password of a withdrawn student (issue 11 item 21): say why, instead of "invalid".
      this.log.info({ event: 'login_refused_withdrawn', role, ip, userId: account.id }, 'sign-in refused: student withdrawn');
      throw new LoginFailure(403, PEOPLE_MESSAGES.withdrawnCannotSignIn);
    }
    if (!account || !ok || account.role !== role || account.disabled) {
      await this.repo.recordFailure(key, new Date(), THROTTLE_WINDOW_SECONDS, perAccountFailures, perAccountBlockSeconds);
      this.log.info({ event: 'login_failed', role, ip, known: Boolean(account) }, 'sign-in failed');
      throw new LoginFailure(401, AUTH_MESSAGES.invalidCredentials);
    }
    await this.repo.clearThrottle(key);
    const pair = await this.issuePair(account.id, role, account.token_version, newFamilyId());
    const profile = await this.repo.profileOf(account.id, role);
    this.log.info({ event: 'login_succeeded', role, userId: account.id, ip }, 'signed in');
    const common = { ...pair, first_name: profile.first_name, must_change_password: account.must_change_password === 1 };
    if (role === 'admin') return { ...common, username: profile.public_id };
    if (role === 'staff') return { ...common, staff_id: profile.public_id };
    return { ...common, admission_number: profile.public_id };
  }

  private async issuePair(userId: number, role: Role, tokenVersion: number, familyId: string) {
    const access = await this.tokens.signAccess({ userId, role, tokenVersion, familyId });
    const refresh = newRefreshToken();
    const expiresAt = new Date(Date.now() + this.config.refreshTokenSeconds * 1000).toISOString();
    await this.repo.storeRefreshToken(userId, familyId, refresh.hash, expiresAt);
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
    if (Date.parse(row.expires_at) <= Date.now()) throw unauthorized(AUTH_MESSAGES.refreshInvalid);
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
    const expiresAt = new Date(Date.now() + this.config.refreshTokenSeconds * 1000).toISOString();
    const rotated = await this.repo.rotateRefreshToken(row.id, { userId: account.id, familyId: row.family_id, hash: next.hash, expiresAt });
    if (!rotated) {
      await this.repo.revokeFamily(row.family_id);
      this.log.warn({ event: 'refresh_reuse', userId: row.user_id }, 'refresh token reused concurrently: family revoked');
      throw unauthorized(AUTH_MESSAGES.refreshInvalid);
    }
    return { access, refresh: next.token };
  }

  /** Ends the sign-in session of the access token (and of the refresh token, if given). */
  async logout(familyId: string, refresh?: string): Promise<void> {
    await this.repo.revokeFamily(familyId);
    if (refresh) {
      const row = await this.repo.findRefreshToken(hashToken(refresh));
      if (row) await this.repo.revokeFamily(row.family_id);
    }
  }

  /** Sets a new password, ends every other session and returns a fresh pair for this one. */
  async changePassword(userId: number, oldPassword: string, newPassword: string) {
    const account = await this.repo.findAccountById(userId);
    if (!account) throw unauthorized(AUTH_MESSAGES.invalidToken);
    if (!(await verifyPassword(account.password_hash, oldPassword))) {
      throw new HttpError(400, { old_password: [AUTH_MESSAGES.oldPasswordWrong] });
    }
    if (oldPassword === newPassword) throw new HttpError(400, { new_password: [AUTH_MESSAGES.passwordSameAsOld] });
    await this.repo.setPassword(userId, await hashPassword(newPassword), false);
    await this.repo.revokeAllForUser(userId);
    this.log.info({ event: 'password_changed', userId }, 'password changed');
    return this.issuePair(userId, account.role, account.token_version + 1, newFamilyId());
  }

  async me(userId: number): Promise<Me> {
    const account = await this.repo.findAccountById(userId);
    if (!account) throw unauthorized(AUTH_MESSAGES.invalidToken);
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
}
