/** Zod-free school settings constants (the public home page imports these without zod). */
export interface SchoolSettings {
  school_name: string;
  motto: string;
  address: string;
  phone: string;
  email: string;
  /** A small image as a data: URL, or empty. */
  logo: string;
  founded_year: number;
  registered_year: number;
  first_graduation_year: number;
  admission_url: string;
  about: string;
  /** Format of new admission numbers: e.g. RMC/{YYYY}/{NNNN}; existing numbers never change. */
  admission_number_format: string;
  /** IANA time zone every date and time is shown in. */
  time_zone: string;
  /** Result-checker PINs: the public check page answers (decision 043). */
  result_pins_enabled: boolean;
  /** Uses a new batch's PINs allow unless the batch says otherwise (1 to 50). */
  result_pin_uses: number;
  /** Report cards withheld from students and parents until the term's fees are paid (decision 042). */
  results_fee_gate: boolean;
  /** The percentage of the term's fees fallen due that opens the card (1..100). */
  results_fee_gate_percent: number;
}

/**
 * A new install's settings until the admin saves the school's own: a neutral name and
 * no contact details, so a school never shows the spec's sample school as itself. The demo school
 * (`npm start`, the e2e suite) writes DEMO_SCHOOL_SETTINGS instead.
 */
export const DEFAULT_SCHOOL_SETTINGS: SchoolSettings = {
  school_name: 'School portal',
  motto: 'raising role models',
  address: '',
  phone: '',
  email: '',
  logo: '',
  founded_year: 1999,
  registered_year: 2002,
  first_graduation_year: 2008,
  admission_number_format: 'STU-{NNNN}',
  /** Empty: the home page links the portal's own admission page (an external address may replace it). */
  admission_url: '',
  about: 'Welcome to our school portal. Students, staff and parents sign in here for results, report cards, attendance and fees.',
  time_zone: 'Africa/Lagos',
  result_pins_enabled: false,
  result_pin_uses: 5,
  results_fee_gate: false,
  results_fee_gate_percent: 100,
};

/** The spec's sample school: what the demo seed stores as its settings. */
export const DEMO_SCHOOL_SETTINGS: SchoolSettings = {
  ...DEFAULT_SCHOOL_SETTINGS,
  school_name: 'Role Models College',
  address: '12 School Road, Ikeja, Lagos',
  phone: '+234 801 234 5678',
  email: 'info@rolemodels.school',
  about: 'A community of learners from nursery to senior secondary, where every child is known, challenged and raised to be a role model.',
};

/** The three schools and the code of conduct shown on the public home page. */
export const SCHOOL_SECTIONS = [
  { name: 'Nursery & Primary School', description: 'A caring start: early years through primary six.' },
  { name: 'Junior Secondary School', description: 'JSS 1 to JSS 3: a broad foundation across fourteen subjects.' },
  { name: 'Senior Secondary School', description: 'SSS 1 to SSS 3: preparation for WAEC, NECO and beyond.' },
] as const;

export const CODE_OF_CONDUCT = [
  'Full uniform at all times.',
  'No physical or verbal aggression.',
  'Respectful communication with everyone.',
  'Exemplify the motto in all you do.',
] as const;

/** Logos: what an upload may be, and the size every page and PDF uses. */
export const LOGO_MAX_SOURCE_PIXELS = 2048;
export const LOGO_STORED_PIXELS = 256;
export const LOGO_MESSAGES = {
  tooLarge: `Logo must be at most ${LOGO_MAX_SOURCE_PIXELS} × ${LOGO_MAX_SOURCE_PIXELS} pixels`,
  unreadable: 'Logo could not be read as a PNG or JPEG image',
} as const;

/** The settings screen's messages. */
export const SETTINGS_MESSAGES = {
  loadFailed: 'Failed to load settings.',
  saved: 'Settings saved',
  saveFailed: 'Failed to save settings',
  logoTooLarge: 'Logo must be smaller than 200 KB',
  admissionExampleNeedsFix: 'Example: (fix the format to see one)',
} as const;
