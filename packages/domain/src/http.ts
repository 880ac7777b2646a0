/** DRF-shaped error bodies. */
export type FieldErrors = Record<string, string[]> & { non_field_errors?: string[] };
export interface DetailError {
  detail: string;
  code?: string;
}

export const GENERAL_MESSAGES = {
  notFound: 'Not found.',
  serverError: 'Server error. Please try again later.',
  serviceUnavailable: 'Service temporarily unavailable. Please try again later.',
  /** A write failed because the server's disk is full (503, `code: storage_full`): nothing was saved. */
  storageFull:
    "The server has run out of storage space, so this change was not saved. Please tell the school's administrator, then try again later.",
  badRequest: 'Invalid request data.',
  invalidId: 'The id must be a whole number from 1.',
  networkError: 'Network error. Please check your connection.',
  comingSoon: 'This screen is coming soon.',
  pageNotFound: "We couldn't find that page.",
  /** A screen that failed to show (an error in the app, not a refusal of the server's). */
  pageFailed: 'This page could not be shown. Reload to try again: what you saved is safe.',
  pageFailedTitle: 'Something went wrong',
  /** A page's code from an earlier release, gone since: the new release is being loaded. */
  newRelease: 'The portal has been updated. Loading the new version…',
  /** A page's code not kept on this device yet, and no connection to fetch it. */
  pageNotKeptOffline: 'This page is not saved on this device yet. Connect to the internet and try again.',
  reload: 'Reload',
  goHome: 'Go to the home page',
  bodyTooLarge: 'Request body is too large.',
  conflict: 'The record was changed by someone else. Reload and try again.',
  unauthorized: 'Unauthorized access. Please login again.',
  /** A user asked for more heavy reports at once than allowed (HeavyReportLimiter). */
  tooManyReports: (n: number) =>
    `You already have ${n} reports or downloads being prepared. Please wait for them to finish, then try again.`,
} as const;

/** The error code of a 503 for a full disk (`GENERAL_MESSAGES.storageFull`). */
export const STORAGE_FULL_CODE = 'storage_full';

/** Pagination accepted by every list endpoint. */
export const MAX_PAGE_SIZE = 5000;
