/** Words of the teaching screens (the server's own messages are in TEACHING_MESSAGES). */
export const TEACHING_SCREEN_MESSAGES = {
  loadFailed: 'Could not load the classes and subjects. Check your connection and try again.',
  saveFailed: 'Could not save. Check your connection and try again.',
  armAdded: (name: string) => `${name} added.`,
  armRenamed: (from: string, to: string) => `${from} is now ${to}. Students, results and fees moved with it.`,
  armRetired: (name: string) => `${name} retired. Its history is kept.`,
  armRestored: (name: string) => `${name} is back in the class lists.`,
  renameExplain: 'Renaming an arm renames the class on every student, result and fee item.',
  subjectAdded: (name: string) => `${name} added to the catalogue.`,
  subjectSaved: (name: string) => `${name} saved.`,
  subjectRetired: (name: string) => `${name} retired. Past results keep it.`,
  offeringsExplain:
    'Compulsory subjects are on every student’s list at that level; electives only for students who choose them (or through their stream).',
  offeringsSaved: (level: string) => `Subjects offered in ${level} saved.`,
  bulkOfferingTitle: 'Set one subject for several class levels',
  bulkOfferingExplain:
    'Choose a subject, how it is offered and the class levels: all of them change together, or none does. Stream: the subject is offered at senior levels and the streams whose subjects include it give it to their students.',
  bulkOfferingPickSubject: 'Choose a subject',
  bulkOfferingPickLevels: 'Choose at least one class level',
  bulkOfferingApply: 'Apply to the chosen levels',
  streamSaved: (name: string) => `Stream ${name} saved.`,
  streamDeleted: (name: string) => `Stream ${name} deleted. Its students now have no stream.`,
  noStreams: 'No streams yet. Streams group the subjects of SSS students (e.g. Science, Arts, Commercial).',
  noSessions: 'Create an academic session first.',
  enforcementExplain:
    'When on, a staff member may enter or change a score only for the class and subject they are assigned to. When off, every staff member may enter every score (the school’s old behaviour). The admin may always change scores.',
  windowsExplain:
    'Close score entry when a term’s scores are final: then only the admin can change them. A setting for one class level wins over “All levels”.',
  windowSaved: (term: string, level: string, open: boolean) => `Score entry for ${term}, ${level}, is now ${open ? 'open' : 'closed'}.`,
  unsavedCells: (n: number) => `${n} unsaved ${n === 1 ? 'change' : 'changes'}.`,
  noChanges: 'Nothing has changed.',
  noStaff: 'No staff members yet. Register staff first.',
  readOnlySubjects: (subjects: string, cls: string) =>
    `You are not assigned to teach ${subjects} in ${cls} this session, so those rows are read-only. Ask the admin to assign you.`,
  lookUpStudentFirst: 'Enter the admission number: the student’s subjects appear here.',
  studentSubjectsSaved: 'The student’s subjects are saved.',
  streamOnlySenior: 'Streams apply to SSS students only.',
  studentSubjectsExplain:
    'A student takes the compulsory subjects of their class level, their stream’s subjects (SSS) and the electives added here, minus the subjects dropped here.',
} as const;
