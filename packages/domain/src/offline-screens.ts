/**
 * Words of the offline core (issue 35, decision 044): the banner of a screen opened from the saved
 * copy on this phone, the badge of rows waiting to be sent, and the sheet that has no saved copy.
 */
export const OFFLINE_MESSAGES = {
  /** `when`: the time the shown data was fetched, in the school's words (formatDateTime). */
  showingFrom: (when: string) => `Offline — showing data from ${when}`,
  offlineSince: (when: string) => `Offline since ${when}.`,
  entriesKept: 'What you enter is kept on this phone and sent when the network is back, even after closing the browser.',
  noCopy: 'You are offline and this sheet was not opened on this phone before: open it once online to keep a copy.',
  unsentBadge: (n: number) => (n === 1 ? '1 row waiting to be sent' : `${n} rows waiting to be sent`),
  /** A row sent from the saved queue while the sheet was closed, refused or in conflict: the sheet shows it. */
  openToResolve: 'Open the sheet to see the rows that could not be sent.',
} as const;
