import { STORAGE_KEYS } from '@portal/domain/auth-constants';
import { getSession } from './auth-store';

/**
 * Unsaved work kept per user and screen in local storage: a reload, or an expired
 * session followed by signing in again as the same user, brings it back. Cleared when the screen
 * saves, and every draft (the payment form's too) is removed at sign-out.
 */
const PREFIX = 'draft:';

function keyFor(screen: string): string | null {
  const s = getSession();
  return s ? `${PREFIX}${s.role}:${s.publicId}:${screen}` : null;
}

export function readDraft<T>(screen: string): T | null {
  const key = keyFor(screen);
  if (!key) return null;
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function writeDraft(screen: string, value: unknown): void {
  const key = keyFor(screen);
  if (!key) return;
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // A full or blocked storage must not break typing.
  }
}

export function clearDraft(screen: string): void {
  const key = keyFor(screen);
  if (key) localStorage.removeItem(key);
}

/** Sign-out: every stored draft of every user and screen, and the payment form's draft. */
export function clearAllDrafts(): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && (k.startsWith(PREFIX) || k === STORAGE_KEYS.paymentDraft)) keys.push(k);
    }
    for (const k of keys) localStorage.removeItem(k);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
