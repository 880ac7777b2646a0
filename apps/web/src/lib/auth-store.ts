import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, VIEW_COOKIE } from '@portal/domain/auth-constants';
import type { Role } from '@portal/domain/constants';

/**
 * The signed-in session, kept in local storage under the keys: accessToken,
 * refreshToken and one role record (adminInfo, staffInfo or studentInfo).
 */
export interface AdminInfo {
  username: string;
  name: string;
}
export interface StaffInfo {
  staffId: string;
  name: string;
}
export interface StudentInfo {
  admissionNumber: string;
  name: string;
}
/** A parent's record (issue 33): the phone number they sign in with. */
export interface ParentInfo {
  phone: string;
  name: string;
}
/** The parent's role record's key, beside the spec's three. */
export const PARENT_INFO_KEY = 'parentInfo';

export interface Session {
  role: Role;
  name: string;
  /** username, staff id, admission number or (a parent) phone number */
  publicId: string;
  mustChangePassword: boolean;
}

const MUST_CHANGE_KEY = 'mustChangePassword';
const listeners = new Set<() => void>();
let cached: { raw: string; session: Session | null } | undefined;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function parse<T>(raw: string | null): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function computeSession(): Session | null {
  if (!read(STORAGE_KEYS.accessToken)) return null;
  const mustChangePassword = read(MUST_CHANGE_KEY) === '1';
  const admin = parse<AdminInfo>(read(STORAGE_KEYS.adminInfo));
  if (admin) return { role: 'admin', name: admin.name, publicId: admin.username, mustChangePassword };
  const staff = parse<StaffInfo>(read(STORAGE_KEYS.staffInfo));
  if (staff) return { role: 'staff', name: staff.name, publicId: staff.staffId, mustChangePassword };
  const student = parse<StudentInfo>(read(STORAGE_KEYS.studentInfo));
  if (student) return { role: 'student', name: student.name, publicId: student.admissionNumber, mustChangePassword };
  const parent = parse<ParentInfo>(read(PARENT_INFO_KEY));
  if (parent) return { role: 'parent', name: parent.name, publicId: parent.phone, mustChangePassword };
  return null;
}

export function getSession(): Session | null {
  const raw = [
    STORAGE_KEYS.accessToken,
    STORAGE_KEYS.adminInfo,
    STORAGE_KEYS.staffInfo,
    STORAGE_KEYS.studentInfo,
    PARENT_INFO_KEY,
    MUST_CHANGE_KEY,
  ]
    .map(read)
    .join('|');
  if (!cached || cached.raw !== raw) cached = { raw, session: computeSession() };
  return cached.session;
}

function emit(): void {
  for (const l of listeners) l();
}

export const tokens = {
  access: () => read(STORAGE_KEYS.accessToken),
  refresh: () => read(STORAGE_KEYS.refreshToken),
  set(access: string, refresh: string) {
    localStorage.setItem(STORAGE_KEYS.accessToken, access);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refresh);
    emit();
  },
};

export interface LoginResult {
  access: string;
  refresh: string;
  first_name: string;
  must_change_password?: boolean;
  username?: string;
  staff_id?: string;
  admission_number?: string;
  /** A parent's sign-in: the phone number (E.164) and the parent's name. */
  phone?: string;
  name?: string;
}

export function saveLogin(role: Role, data: LoginResult): void {
  endedHere = false;
  clearStored();
  localStorage.setItem(STORAGE_KEYS.accessToken, data.access);
  localStorage.setItem(STORAGE_KEYS.refreshToken, data.refresh);
  if (role === 'admin')
    localStorage.setItem(
      STORAGE_KEYS.adminInfo,
      JSON.stringify({ username: data.username ?? '', name: data.first_name } satisfies AdminInfo),
    );
  if (role === 'staff')
    localStorage.setItem(
      STORAGE_KEYS.staffInfo,
      JSON.stringify({ staffId: data.staff_id ?? '', name: data.first_name } satisfies StaffInfo),
    );
  if (role === 'student')
    localStorage.setItem(
      STORAGE_KEYS.studentInfo,
      JSON.stringify({ admissionNumber: data.admission_number ?? '', name: data.first_name } satisfies StudentInfo),
    );
  if (role === 'parent')
    localStorage.setItem(
      PARENT_INFO_KEY,
      JSON.stringify({ phone: data.phone ?? '', name: data.first_name || data.name || '' } satisfies ParentInfo),
    );
  setMustChangePassword(Boolean(data.must_change_password), false);
  emit();
}

export function setMustChangePassword(value: boolean, notify = true): void {
  if (value) localStorage.setItem(MUST_CHANGE_KEY, '1');
  else localStorage.removeItem(MUST_CHANGE_KEY);
  if (notify) emit();
}

/**
 * Signing out has begun in this page: the server revokes the tokens first, so a call still in flight
 * is refused meanwhile. That is the sign-out, not an expired session: no "session expired" sign-in.
 */
let signingOut = false;
export const signingOutHere = (): boolean => signingOut;
export function setSigningOut(value: boolean): void {
  signingOut = value;
}

/** Whether this page ended its session (signed out, or the session expired) and no one has signed in since. */
let endedHere = false;
export const sessionEndedHere = (): boolean => endedHere;

/** Ends the session in this browser (logout, failed refresh): tokens, role record and page-view cookie. */
export function clearSession(): void {
  endedHere = true;
  clearStored();
  // The page-view cookie: the server would otherwise still render this user's pages in this browser.
  // (Not at sign-in: the new cookie has just arrived with the sign-in's answer.)
  if (typeof document !== 'undefined')
    document.cookie = `${VIEW_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  emit();
}

/** Clears tokens and the role record. */
function clearStored(): void {
  for (const key of [
    STORAGE_KEYS.accessToken,
    STORAGE_KEYS.refreshToken,
    STORAGE_KEYS.adminInfo,
    STORAGE_KEYS.staffInfo,
    STORAGE_KEYS.studentInfo,
    PARENT_INFO_KEY,
    MUST_CHANGE_KEY,
  ]) {
    localStorage.removeItem(key);
  }
  // The one-time passwords kept for the day's sign-in slips (features/people/new-sign-ins-store).
  sessionStorage.removeItem('newSignInPasswords');
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = () => listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The session a page is rendered for on the server (src/ssr/render-page.tsx); none in the browser. */
let serverSession: Session | null = null;

/**
 * Renders as `session` on the server. A render is synchronous, so one request's session never
 * reaches another request's page.
 */
export function renderingAs<T>(session: Session, render: () => T): T {
  serverSession = session;
  try {
    return render();
  } finally {
    serverSession = null;
  }
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => serverSession);
}

export const HOME_OF_ROLE: Record<Role, string> = {
  admin: '/adminHomePage',
  staff: '/staffHomePage',
  student: '/StudentHomePage',
  parent: '/ParentHomePage',
};
export const LOGIN_OF_ROLE: Record<Role, string> = {
  admin: '/Admin',
  staff: '/StaffLogin',
  student: '/StudentLogin',
  parent: '/ParentLogin',
};
