/**
 * The admin's first-run checklist: the order a school sets the portal up in. Zod-free
 * (the admin home imports it). The server decides which steps are done, from the school's own data,
 * in one statement (GET /api/setup-checklist/); the admin home's tile groups follow the same order.
 */

export const SETUP_STEP_IDS = [
  'school',
  'calendar',
  'classes',
  'assessment',
  'staff',
  'students',
  'assignments',
  'fees',
  'report_cards',
] as const;
export type SetupStepId = (typeof SETUP_STEP_IDS)[number];

export interface SetupStepLink {
  to: string;
  label: string;
}

export interface SetupStep {
  id: SetupStepId;
  title: string;
  /** What "done" means, shown under the title. */
  hint: string;
  /** The screens that do the step (the first is the main one). */
  links: readonly SetupStepLink[];
}

export const SETUP_STEPS: readonly SetupStep[] = [
  {
    id: 'school',
    title: 'School details',
    hint: 'Your school’s name, motto, address and logo.',
    links: [{ to: '/settings', label: 'School Settings' }],
  },
  {
    id: 'calendar',
    title: 'Session and calendar',
    hint: 'A current academic session and its term dates.',
    links: [
      { to: '/sessions', label: 'Academic Sessions' },
      { to: '/school-calendar', label: 'School Calendar' },
    ],
  },
  {
    id: 'classes',
    title: 'Classes and subjects',
    hint: 'The class arms and the subjects each level offers.',
    links: [{ to: '/classes-subjects', label: 'Classes and Subjects' }],
  },
  {
    id: 'assessment',
    title: 'Assessment scheme',
    hint: 'The CA and exam components of this session.',
    links: [{ to: '/assessment-schemes', label: 'Assessment Schemes' }],
  },
  {
    id: 'staff',
    title: 'Staff',
    hint: 'Register or import your teachers and other staff.',
    links: [
      { to: '/StaffReg', label: 'Register Staff' },
      { to: '/import/staff', label: 'Import Staff' },
    ],
  },
  {
    id: 'students',
    title: 'Students',
    hint: 'Register or import your students.',
    links: [
      { to: '/StudentReg', label: 'Register Student' },
      { to: '/import/students', label: 'Import Students' },
    ],
  },
  {
    id: 'assignments',
    title: 'Teaching assignments',
    hint: 'Who teaches which subject in which class this session.',
    links: [{ to: '/teaching-assignments', label: 'Teaching Assignments' }],
  },
  {
    id: 'fees',
    title: 'Fees',
    hint: 'What each class owes this session.',
    links: [{ to: '/payments/fee-schedules', label: 'Fee Schedules' }],
  },
  {
    id: 'report_cards',
    title: 'Report card settings',
    hint: 'Traits, rating key, comment bank and promotion rule.',
    links: [{ to: '/report-card-settings', label: 'Report Card Settings' }],
  },
];

/** GET /api/setup-checklist/ (admin). */
export interface SetupChecklist {
  steps: { id: SetupStepId; done: boolean }[];
  /** Every step is done. */
  complete: boolean;
  /** The admin hid the checklist (possible only once it is complete). */
  dismissed: boolean;
}

export const SETUP_MESSAGES = {
  title: 'Set up your school',
  intro: 'Work through these steps in order; each is ticked when the portal finds it done.',
  progress: (done: number, total: number) => `${done} of ${total} steps done`,
  done: 'Done',
  todo: 'To do',
  complete: 'Your school is set up.',
  dismiss: 'Hide this checklist',
  notComplete: 'The checklist can be hidden once every step is done.',
  loadFailed: 'Could not load the set-up checklist.',
} as const;
