/**
 * Words of the attendance screens that the server never says: field labels, toasts and
 * prompts. The server's messages, the status labels and the screens' titles are in attendance.ts.
 */
export const ATTENDANCE_SCREEN_LABELS = {
  arm: 'Class',
  date: 'Date',
  period: 'Register',
  month: 'Month',
  session: 'Session',
  term: 'Term',
  admissionNumber: 'Admission number',
  open: 'Open',
  reload: 'Reload',
  student: 'Student',
  total: 'Total',
  late: 'Times late',
  excused: 'Absent with permission',
  daysNotPresent: 'Days not present',
  noDaysMissed: 'Present on every day marked so far.',
  notMarkedArms: 'Classes that have not marked yet',
  absentees: 'Absent',
  settings: 'Registers and Saturdays',
  periodsPerDay: 'Registers a day',
  onePeriod: 'One (morning)',
  twoPeriods: 'Two (morning and afternoon)',
  saturdayClasses: 'Saturday classes (every Saturday in a term is a school day)',
  saveSettings: 'Save settings',
  terms: 'Term dates',
  startsOn: 'First day',
  endsOn: 'Last day',
  saveTerm: 'Save term dates',
  schoolDays: (n: number | null, registers: number) =>
    `${n === null ? 'No dates yet' : `${n} school day${n === 1 ? '' : 's'}`} · ${registers} register${registers === 1 ? '' : 's'} saved`,
  events: 'Holidays, breaks and extra school days',
  eventName: 'Name',
  eventKind: 'Kind',
  addEvent: 'Add',
  addEventTitle: 'Add a holiday, break or extra school day',
  deleteEvent: 'Delete',
  noEvents: 'No holidays or breaks yet.',
  carried: 'Carried-in totals (from paper registers)',
  carriedHint: 'A CSV with the header admission_number, days_present, days_absent; at most 1 MB.',
  carriedFile: 'CSV file',
  apply: 'Apply',
  leave: 'Leave without saving',
  stay: 'Stay',
} as const;

/** Names listed in the "not marked yet" message before "and N more". */
export const NOT_MARKED_NAMES_SHOWN = 2;
/**
 * Characters of names the message lists at most: two long names wrapped the sticky Save bar past a
 * third of a 360 px phone. A name longer than that is cut with "…" (each row shows it in full).
 */
export const NOT_MARKED_NAME_CHARS = 36;

/** The unmarked students the message names: at most two, within NOT_MARKED_NAME_CHARS, the first always. */
function namesShown(names: readonly string[]): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const name of names.slice(0, NOT_MARKED_NAMES_SHOWN)) {
    const chars = [...name];
    if (shown.length && used + chars.length > NOT_MARKED_NAME_CHARS) break;
    const fitted =
      chars.length > NOT_MARKED_NAME_CHARS
        ? `${chars
            .slice(0, NOT_MARKED_NAME_CHARS - 1)
            .join('')
            .trimEnd()}…`
        : name;
    shown.push(fitted);
    used += [...fitted].length;
  }
  return shown;
}

export const ATTENDANCE_SCREEN_MESSAGES = {
  loadFailed: 'Could not load the register. Please try again.',
  viewFailed: 'Could not load the attendance. Please try again.',
  saveFailed: 'Could not save. Please try again.',
  registerSaved: 'Register saved.',
  chooseTerm: 'Choose the term first.',
  noFormClasses: 'You are not the form teacher of any class this session: the admin assigns form teachers.',
  // A few names only: the message sits in the sticky Save bar, which must not cover the list on a phone.
  notMarked: (names: readonly string[]) => {
    const shown = namesShown(names);
    return shown.length === names.length
      ? `Not marked yet: ${shown.join(', ')}.`
      : `Not marked yet: ${shown.join(', ')} and ${names.length - shown.length} more.`;
  },
  leaveUnsaved: 'Some marks are not saved yet. Leave and lose them?',
  settingsSaved: 'Settings saved.',
  termSaved: (term: string) => `${term} dates saved.`,
  eventAdded: 'Added to the calendar.',
  eventDeleted: 'Removed from the calendar.',
  deleteEventConfirm: (name: string) => `Delete "${name}" from the calendar? Its days count as school days again.`,
  checking: 'Checking the file…',
  nothingToApply: 'Every total in the file is already stored.',
} as const;
