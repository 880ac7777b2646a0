import { safeNext } from './safe-next';

/**
 * The report card a student or a parent was paying to open (the fee gate, decision 042): the card's
 * page remembers its address before sending them to the payment form, and the form offers the way
 * back once the payment is verified, where the card opens at once (the server keeps no stale answer).
 * In lib/ because two features share it (results' card page, payments' form) and neither imports the other.
 */
const KEY = 'portal.cardAfterPayment';

export function rememberCardToOpen(address: string): void {
  try {
    window.sessionStorage.setItem(KEY, address);
  } catch {
    /* storage refused (private mode): the way back is the menu */
  }
}

/** The remembered card's address (a path of this site), or null. */
export function cardToOpen(): string | null {
  try {
    return safeNext(window.sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function forgetCardToOpen(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}
