/** Zod-free constants of the admission page (the public page imports these without zod). */

/** Longest text of one section: about two printed pages between the five. */
export const ADMISSION_TEXT_MAX = 2000;

export const ADMISSION_PAGE_FIELDS = [
  { key: 'how_to_apply', label: 'How to apply' },
  { key: 'requirements', label: 'Requirements' },
  { key: 'dates', label: 'Dates' },
  { key: 'fees', label: 'Fees' },
  { key: 'contact', label: 'Contact' },
] as const;

export type AdmissionPageKey = (typeof ADMISSION_PAGE_FIELDS)[number]['key'];
export type AdmissionPage = Record<AdmissionPageKey, string>;

/** Shown until the admin writes the school's own text. */
export const DEFAULT_ADMISSION_PAGE: AdmissionPage = {
  how_to_apply:
    'Collect an application form from the school office, or ask us to send one by email.\nReturn the completed form with the documents listed below.\nWe will invite your child to an entrance assessment and a short interview.',
  requirements:
    'Birth certificate or other proof of age.\nThe last school report (for entry above the first class).\nTwo recent passport photographs.',
  dates: 'Applications are open throughout the year. Ask the school office for the dates of the next entrance assessment.',
  fees: 'The application fee and the school fees for each class are available from the school office.',
  contact: 'Visit or call the school office on school days.',
};

export const ADMISSION_MESSAGES = {
  pageTitle: 'Admission process',
  settingsTitle: 'Admission Page',
  settingsHint: 'The text of the public Admission process page. Plain text: line breaks are kept, nothing else is formatted.',
  applyOnline: 'Apply online',
  saved: 'Admission page saved',
  saveFailed: 'Failed to save the admission page',
  loadFailed: 'Could not load the admission page.',
  empty: 'Ask the school office.',
} as const;
