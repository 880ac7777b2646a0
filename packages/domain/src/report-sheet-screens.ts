/**
 * Words of the report-card entry screens: settings, the ratings grid and the comments
 * list. The server's own messages are in REPORT_MESSAGES (report-cards.ts).
 */
export const REPORT_SHEET_TITLES = {
  settings: 'Report Card Settings',
  ratings: 'Class Ratings',
  comments: 'Class Comments',
} as const;

export const REPORT_SHEET_MENU = {
  settings: {
    to: '/report-card-settings',
    label: 'Report Card Settings',
    description: 'Traits, rating key, comment bank, promotion, term dates',
  },
  ratings: { to: '/class-ratings', label: 'Class Ratings', description: 'Affective and psychomotor ratings of your form class' },
  comments: { to: '/class-comments', label: 'Class Comments', description: 'Comments, attendance and promotion of your form class' },
} as const;

export const REPORT_SHEET_LABELS = {
  traits: 'Traits',
  traitName: 'Trait name',
  addTrait: 'Add trait',
  newTrait: 'New trait',
  moveUp: 'Move up',
  moveDown: 'Move down',
  remove: 'Remove',
  ratingLabels: 'Rating key',
  ratingLabel: (n: number) => `Label of rating ${n}`,
  requireComments: "Require both the form teacher's and the principal's comment before the cards are submitted",
  promotion: 'Promotion rule (third term)',
  minAverage: 'Annual average needed for promotion',
  trialAverage: 'Annual average for promotion on trial',
  noTrial: 'Leave empty: no promotion on trial.',
  passMark: 'Pass mark of a subject',
  requiredSubjects: 'Subjects that must be passed',
  commentBank: 'Comment bank',
  commentKind: 'Comment of',
  bandMin: 'Average from',
  bandMax: 'Average to',
  commentText: 'Comment',
  addComment: 'Add comment',
  images: 'Signature and stamp',
  signature: "Principal's signature (PNG or JPEG, under 2 MB)",
  stamp: 'School stamp (PNG or JPEG, under 2 MB)',
  removeSignature: 'Remove signature',
  removeStamp: 'Remove stamp',
  saveSettings: 'Save settings',
  termDates: 'Term dates',
  nextTermBegins: 'Next term begins',
  timesOpened: 'Times school opened',
  timesOpenedHint: 'Leave empty to count the school days on the School calendar.',
  saveTerm: 'Save term dates',
  session: 'Academic Session',
  term: 'Academic Term',
  arm: 'Class',
  openSheet: 'Open',
  changeClass: 'Change class or term',
  student: 'Student',
  status: 'Status',
  average: 'Average',
  position: 'Pos.',
  formComment: "Form teacher's comment",
  principalComment: "Principal's comment",
  useSuggestion: 'Use suggestion',
  suggestion: 'Suggestion',
  daysPresent: 'Days present',
  daysAbsent: 'Days absent',
  promotionComputed: 'By the rule',
  promotionOverride: 'Decision',
  promotionAsRule: 'As the rule says',
  overrideReason: 'Reason for the change',
  applyForm: "Apply suggested form teacher's comments",
  applyPrincipal: "Apply suggested principal's comments",
  overwrite: 'Replace comments already written',
  apply: 'Apply',
  reload: 'Reload',
  retry: 'Retry',
  saveAll: 'Save all',
} as const;

export const REPORT_SHEET_MESSAGES = {
  /** The report card settings screen (decision 058). */
  settingsOfCurrentSession:
    "These settings are the current session's. Cards of earlier sessions keep the settings their session ended with.",
  loadFailed: 'Could not load the sheet. Check your connection and try again.',
  saveFailed: 'Could not save. Check your connection and try again.',
  choose: 'Choose the session, term and class.',
  noFormClasses: 'You are not the form teacher of any class this session. Ask the admin to assign you.',
  ratingKeyIntro:
    'Type a rating from 1 to 5 in each cell (empty: not rated). Enter and the arrow keys move; a block pasted from a spreadsheet fills right and down.',
  ratingCell: 'Type a whole number from 1 to 5, or leave it empty.',
  pasteTooBig: (rows: number, cols: number) =>
    `The pasted block has ${rows} row${rows === 1 ? '' : 's'} and ${cols} column${cols === 1 ? '' : 's'}: what does not fit the sheet was left out.`,
  unsaved: 'Not saved yet',
  saving: 'Saving…',
  saved: 'Saved',
  failed: 'Not saved',
  conflict: 'Changed by someone else',
  readOnly: 'You can read this sheet but not change it.',
  applyConfirm: (kind: string, overwrite: boolean) =>
    overwrite
      ? `Every student's ${kind} will be replaced by the suggestion for their average. You can still edit each one after.`
      : `Students without a ${kind} get the suggestion for their average. Comments already written stay.`,
  traitsEmpty: 'No traits in this list: the card will not show this section.',
  bankEmpty: 'No comments in the bank: no suggestions are offered.',
  imageTooLarge: 'The image is too large (at most 2 MB)',
  overrideNeedsReason: 'Give a reason for overriding the promotion decision.',
  timesOpenedNote: (n: number | null) => (n === null ? 'Times school opened: not set yet.' : `Times school opened this term: ${n}.`),
  noAverage: 'No scores yet',
} as const;

const cellsWord = (n: number) => `${n} cell${n === 1 ? '' : 's'}`;

/** The ratings sheet's bulk fill: one rating for a trait's column or the whole sheet, then the exceptions by hand. */
export const RATING_FILL = {
  title: 'Fill with one rating',
  intro: 'Rate the whole class at once, then change the students who differ.',
  trait: 'Trait',
  allTraits: 'Every trait',
  rating: 'Rating',
  fill: 'Fill empty cells',
  filled: (n: number, rating: string) => `Filled ${cellsWord(n)} with ${rating}.`,
  nothingEmpty: 'No empty cell to fill.',
  kept: (n: number) => `${cellsWord(n)} already rated otherwise ${n === 1 ? 'was' : 'were'} left as ${n === 1 ? 'it was' : 'they were'}.`,
  replace: (n: number) => `Replace ${n === 1 ? 'that rating' : `those ${n} ratings`} too`,
  replaceTitle: 'Replace ratings already given',
  replaceConfirm: (n: number, rating: string) =>
    `${n === 1 ? 'One rating already given' : `${n} ratings already given`} will become ${rating}. You can still change each one after.`,
  replaceButton: 'Replace',
  replaced: (n: number, rating: string) => `Replaced ${n === 1 ? '1 rating' : `${n} ratings`} with ${rating}.`,
} as const;
