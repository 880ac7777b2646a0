/**
 * Words of the offline data's safety (issue 35.4, 35.5; docs/decisions/044): signing out with
 * changes not sent, another account's changes waiting on the same phone, and the saved copies
 * (report cards, receipts) opened without a network.
 */
const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);

export const OFFLINE_SAFETY_MESSAGES = {
  signOutTitle: 'Sign out with changes not sent?',
  signOutUnsent: (n: number) =>
    `${changes(n)} you made on this phone ${n === 1 ? 'has' : 'have'} not reached the school yet. Signing out removes ${n === 1 ? 'it' : 'them'} from this phone.`,
  signOutOffline: 'You are offline: connect to send them first, or sign out and lose them.',
  sendFirst: 'Send them first',
  sending: 'Sending…',
  sendFailed: (n: number) => `${changes(n)} could not be sent. Open the screen to see why, or sign out and lose ${n === 1 ? 'it' : 'them'}.`,
  discardAndSignOut: 'Sign out and discard',
  stay: 'Stay signed in',
  /** Shown to whoever signs in while another account's changes wait on this phone (never what they are). */
  otherUsersChanges: (n: number) =>
    `${changes(n)} made on this phone by another account ${n === 1 ? 'is' : 'are'} waiting to be sent. ${n === 1 ? 'It is' : 'They are'} kept, not sent and not shown, until that account signs in here again.`,
  /** After signing in again as the same account: what waited is being sent. */
  resending: (n: number) => `Sending the ${changes(n)} that waited while you were signed out…`,
  /** On a saved copy (a report card or receipt opened before, read without a network). */
  savedCopy: (when: string) => `Saved copy from ${when}: you are offline, so this is the copy kept on this phone, read only.`,
  savedCopyNeedsNetwork: 'Connect to the internet to download or print a fresh copy.',
  /** Nothing saved for what was asked, offline. */
  noSavedCopy: 'You are offline and this was not opened on this phone before: connect to the internet to open it.',
  /** The register opened offline. */
  registerOffline: (since: string | null, dataFrom: string) =>
    `You are offline${since ? ` since ${since}` : ''}. This register is the copy from ${dataFrom}: mark it as usual, the marks are kept on this phone and sent when the network is back.`,
} as const;
