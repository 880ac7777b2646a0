import type { FastifyBaseLogger } from 'fastify';
import { AUTH_MESSAGES, PEOPLE_MESSAGES, type LoginData, type Me, type Role, type SignInBlock } from '@portal/domain';
import type { Config } from '../../config';
import { HttpError, unauthorized } from '../../http/errors';
import { assertPasswordAllowed } from '../../lib/password-policy';
import { burnPasswordCheck, hashPassword, hasFullCost, verifyPassword } from '../../lib/passwords';
import { hashToken, newFamilyId, newRefreshToken, type TokenService } from '../../lib/tokens';
import type { AuthRepository } from './auth.repository';

const THROTTLE_WINDOW_SECONDS = 15 * 60;
const SIGN_IN_PREFIX = 'login:';
/** The throttle key of one account from one client address (emails hold no spaces). */
const signInKey = (email: string, address: string) => `${SIGN_IN_PREFIX}${email} ${address}`;
/** The throttle key of wrong current passwords on the password-change route. */
const passwordChangeKey = (userId: number) => `pwchange:${userId}`;

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
  ) {}

  /**
   * Signs in through one role's endpoint; an account of another role is refused like a bad password.
   * Failures are counted per account AND client address (`login:<email> <address>`): a stranger who
   * sends wrong passwords for the admin blocks only their own address, never the owner's. The attempt
   * is reserved before the password is checked, so parallel guesses cannot get past the limit.
   */
  async login(role: Role, email: string, password: string, ip: string): Promise<LoginData> {
    const { perAccountFailures, perAccountBlockSeconds } = this.config.loginLimits;
    const key = signInKey(email, ip);
    if (!(await this.repo.reserveAttempt(key, new Date(), THROTTLE_WINDOW_SECONDS, perAccountFailures))) {
      this.log.warn({ event: 'login_throttled', role, ip }, 'sign-in refused: account throttled for this address');
      throw new LoginFailure(429, AUTH_MESSAGES.tooManyAttempts);
    }
    const account = await this.repo.findAccountByEmail(email);
    const ok = account ? await verifyPassword(account.password_hash, password) : false;
    if (
      account &&
      ok &&
      account.role === role &&
      account.disabled &&
      role === 'student' &&
      (await this.repo.isWithdrawnStudent(account.id))
    ) {
      // The right password of a withdrawn student: say why, instead of "invalid".
      this.log.info({ event: 'login_refused_withdrawn', role, ip, userId: account.id }, 'sign-in refused: student withdrawn');
      throw new LoginFailure(403, PEOPLE_MESSAGES.withdrawnCannotSignIn);
    }
    if (!account || !ok || account.role !== role || account.disabled) {
      // Every failure costs one full-cost argon2id verification, whatever the account: unknown
      // emails and cheaply hashed (imported) accounts get a dummy one on top.
      if (!account || !hasFullCost(account.password_hash)) await burnPasswordCheck(password);
      await this.repo.blockIfExhausted(key, new Date(), perAccountFailures, perAccountBlockSeconds);
      this.log.info({ event: 'login_failed', role, ip, known: Boolean(account) }, 'sign-in failed');
      throw new LoginFailure(401, AUTH_MESSAGES.invalidCredentials);
    }
    await this.repo.clearThrottle(key);
    // Whoever signs in with the password starts with a fresh allowance of password-change attempts.
    await this.repo.clearThrottle(passwordChangeKey(account.id));
    const pair = await this.issuePair(account.id, role, account.token_version, newFamilyId());
    const profile = await this.repo.profileOf(account.id, role);
    this.log.info({ event: 'login_succeeded', role, userId: account.id, ip }, 'signed in');
    const common = { ...pair, first_name: profile.first_name, must_change_password: account.must_change_password === 1 };
    if (role === 'admin') return { ...common, username: profile.public_id };
    if (role === 'staff') return { ...common, staff_id: profile.public_id };
    return { ...common, admission_number: profile.public_id };
  }

  /** Sign-in blocks in force, for the admin: which account, from which address, until when. */
  async listSignInBlocks(): Promise<SignInBlock[]> {
    const rows = await this.repo.listSignInBlocks(new Date());
    return rows.map((r) => {
      const rest = r.key.slice(SIGN_IN_PREFIX.length);
      const space = rest.lastIndexOf(' ');
      return { email: rest.slice(0, space), address: rest.slice(space + 1), blocked_until: r.blocked_until! };
    });
  }

  /** Clears the sign-in blocks of an account: from one address, or from all of them. Audited. */
  async clearSignInBlocks(actorUserId: number, email: string, address?: string): Promise<number> {
    const cleared = await this.repo.clearSignInBlocks(
      address ? { key: signInKey(email, address) } : { prefix: `${SIGN_IN_PREFIX}${email} ` },
      new Date(),
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
    const { perAccountFailures, perAccountBlockSeconds } = this.config.loginLimits;
    const key = passwordChangeKey(userId);
    const endSession = async () => {
      await this.repo.revokeFamily(familyId);
      this.log.warn({ event: 'password_change_locked', userId }, 'too many wrong current passwords: session ended');
      return unauthorized(AUTH_MESSAGES.passwordChangeTooManyFailures);
    };
    if (!(await this.repo.reserveAttempt(key, new Date(), THROTTLE_WINDOW_SECONDS, perAccountFailures))) throw await endSession();
    const account = await this.repo.findAccountById(userId);
    if (!account) throw unauthorized(AUTH_MESSAGES.invalidToken);
    if (!(await verifyPassword(account.password_hash, oldPassword))) {
      if (await this.repo.blockIfExhausted(key, new Date(), perAccountFailures, perAccountBlockSeconds)) throw await endSession();
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
