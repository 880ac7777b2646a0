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

/** The label of each screen a step links to, by its address. */
const STEP_SCREENS = {
  '/settings': 'School Settings',
  '/sessions': 'Academic Sessions',
  '/school-calendar': 'School Calendar',
  '/classes-subjects': 'Classes and Subjects',
  '/assessment-schemes': 'Assessment Schemes',
  '/StaffReg': 'Register Staff',
  '/import/staff': 'Import Staff',
  '/StudentReg': 'Register Student',
  '/import/students': 'Import Students',
  '/teaching-assignments': 'Teaching Assignments',
  '/payments/fee-schedules': 'Fee Schedules',
  '/report-card-settings': 'Report Card Settings',
} as const;

/** A step: its id, title, hint and the addresses of its screens (the main one first). */
function step(id: SetupStepId, title: string, hint: string, ...screens: (keyof typeof STEP_SCREENS)[]): SetupStep {
  return { id, title, hint, links: screens.map((to) => ({ to, label: STEP_SCREENS[to] })) };
}

export const SETUP_STEPS: readonly SetupStep[] = [
  step('school', 'School details', 'Your school’s name, motto, address and logo.', '/settings'),
  step('calendar', 'Session and calendar', 'A current academic session and its term dates.', '/sessions', '/school-calendar'),
  step('classes', 'Classes and subjects', 'The class arms and the subjects each level offers.', '/classes-subjects'),
  step('assessment', 'Assessment scheme', 'The CA and exam components of this session.', '/assessment-schemes'),
  step('staff', 'Staff', 'Register or import your teachers and other staff.', '/StaffReg', '/import/staff'),
  step('students', 'Students', 'Register or import your students.', '/StudentReg', '/import/students'),
  step('assignments', 'Teaching assignments', 'Who teaches which subject in which class this session.', '/teaching-assignments'),
  step('fees', 'Fees', 'What each class owes this session.', '/payments/fee-schedules'),
  step('report_cards', 'Report card settings', 'Traits, rating key, comment bank and promotion rule.', '/report-card-settings'),
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
