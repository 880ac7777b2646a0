import { useState } from 'react';
import { useLocation } from 'react-router';
import { welcomeMessage } from '@portal/domain/datetime';
import { ATTENDANCE_SCREENS as ATT } from '@portal/domain/attendance';
import { BURSARY_SCREENS as BUR } from '@portal/domain/bursary';
import { BURSARY_FEE_SCREENS, MY_STATEMENT_SCREEN } from '@portal/domain/bursary-screens';
import { FEE_RELEASES_SCREEN } from '@portal/domain/card-fee-gate';
import { FEE_REPORT_SCREENS as REP } from '@portal/domain/fee-reports';
import { DISCOUNT_SCREEN } from '@portal/domain/discounts';
import { NOTICE_SCREENS as NOTE } from '@portal/domain/notice-screens';
import { PARENT_SCREENS } from '@portal/domain/parent-screens';
import { REPORT_SHEET_MENU } from '@portal/domain/report-sheet-screens';
import { RESULT_PIN_SCREENS } from '@portal/domain/result-pin-screens';
import { ROLLOVER_SCREEN } from '@portal/domain/rollover-screen';
import { SESSION_END_MENU_TITLE, SESSION_END_SCREENS as END } from '@portal/domain/session-end-screens';
import { TRANSFER_REPORT_SCREEN_LABELS, TRANSFER_REPORT_SCREENS as TRF } from '@portal/domain/transfer-report-screens';
import { PageLayout } from '../../components/layout/app-layout';
import { Button } from '../../components/ui/button';
import { useSession } from '../../lib/auth-store';
import { useHasCapability } from '../../lib/capabilities';
import { useWaitingTransfers } from '../../lib/waiting-transfers';
import { DashboardSlot } from '../../lib/dashboard-slot';
import { MenuGrid, MenuSection, WelcomeBanner, type MenuItem } from './menu';
import { PeopleOverview } from './people-overview';
import { SetupChecklist } from './setup-checklist';
import { TeacherClasses } from './teacher-classes';
import { SentBackNotice } from './sent-back-notice';


function useWelcome(): string {
  const session = useSession();
  const state = useLocation().state as { welcomeMessage?: string } | null;
  return state?.welcomeMessage ?? welcomeMessage(session?.name);
}

/**
 * The people and result screens more than one home links to, each named once (its route and tile
 * label); a menu adds its own description where it says more.
 */
const SCREEN = {
  studentReg: { to: '/StudentReg', label: 'Register Student' },
  importStudents: { to: '/import/students', label: 'Import Students' },
  newSignIns: { to: '/new-sign-ins', label: "Today's Sign-in Slips" },
  studentInfos: { to: '/StudentInfos', label: 'Student Information' },
  studentList: { to: '/student-data', label: 'Student List' },
  findStudent: { to: '/CheckAStudentData', label: 'Find a Student' },
  updateStudent: { to: '/UpdateStudentDetails', label: 'Update Student Details' },
  deleteStudent: { to: '/DeleteStudent', label: 'Delete Student' },
  staffDetails: { to: '/StaffDetails', label: 'Staff Details' },
  findStaff: { to: '/CheckAStaffData', label: 'Find a Staff Member' },
  staffList: { to: '/staff', label: 'Staff List' },
  reportCards: { to: '/report-card', label: 'Report Cards' },
  reportApprovals: { to: '/report-approvals', label: 'Report Card Approvals' },
  broadsheet: { to: '/broadsheet', label: 'Broadsheet' },
  changePassword: { to: '/change-password', label: 'Change Password' },
} as const satisfies Record<string, MenuItem>;

/** The result screens admin and staff both start their results group with, in this order. */
const RESULT_WORK_MENU: readonly MenuItem[] = [
  { to: '/ResultUpload', label: 'Upload Results' },
  { to: '/ResultsCheck', label: 'Check Class Results' },
  { to: '/UpdateResult', label: 'Update Results' },
  { to: '/DeleteResult', label: 'Delete Results' },
  { to: '/check-a-result', label: 'Check a Result' },
];

/**
 * The admin home's tiles, grouped in the order a school sets the portal up (the first-run
 * checklist's order), then the daily work. Every link of the spec's admin menu is here
 * under its group: ResultUpload, StudentReg, StaffReg, ResultsCheck, StudentInfos, StaffDetails,
 * UpdateResult, UpdateStaffDetails, UpdateStudentDetails, DeleteStaff, DeleteStudent, DeleteResult,
 * check-a-result.
 */
export const ADMIN_SCHOOL_MENU: readonly MenuItem[] = [
  { to: '/settings', label: 'School Settings', description: 'Name, motto, address, logo' },
  { to: '/settings/admission', label: 'Admission Page', description: 'How to apply, requirements, dates, fees' },
];

export const ADMIN_CALENDAR_MENU: readonly MenuItem[] = [
  { to: '/sessions', label: 'Academic Sessions', description: 'Create, rename, mark current' },
  ATT.calendar,
];

export const ADMIN_CLASSES_MENU: readonly MenuItem[] = [
  { to: '/classes-subjects', label: 'Classes and Subjects', description: 'Arms, subject catalogue, offerings, streams' },
];

export const ADMIN_ASSESSMENT_MENU: readonly MenuItem[] = [
  { to: '/assessment-schemes', label: 'Assessment Schemes', description: 'CA and exam components per session, JSS and SSS' },
  { to: '/grading-scales', label: 'Grading Scales', description: 'JSS and SSS bands and remarks' },
];

export const ADMIN_STAFF_MENU: readonly MenuItem[] = [
  { to: '/StaffReg', label: 'Register Staff' },
  { to: '/import/staff', label: 'Import Staff', description: 'CSV upload and sign-in slips' },
  SCREEN.staffDetails,
  { ...SCREEN.staffList, description: 'Profiles and edits' },
  SCREEN.findStaff,
  { to: '/UpdateStaffDetails', label: 'Update Staff Details' },
  { to: '/DeleteStaff', label: 'Delete Staff' },
];

export const ADMIN_STUDENTS_MENU: readonly MenuItem[] = [
  SCREEN.studentReg,
  { ...SCREEN.importStudents, description: 'CSV upload and sign-in slips' },
  { ...SCREEN.newSignIns, description: "Print the day's new accounts together" },
  SCREEN.studentInfos,
  { ...SCREEN.studentList, description: 'Search, page and export' },
  SCREEN.findStudent,
  SCREEN.updateStudent,
  SCREEN.deleteStudent,
];

/** Parents (issue 33): their accounts and children, phone numbers to settle, invitations. */
export const ADMIN_PARENTS_MENU: readonly MenuItem[] = [PARENT_SCREENS.list, PARENT_SCREENS.conflicts, PARENT_SCREENS.invitations];

export const ADMIN_TEACHING_MENU: readonly MenuItem[] = [
  { to: '/teaching-assignments', label: 'Teaching Assignments', description: 'Subject and form teachers, score entry' },
  { to: '/my-classes', label: 'My Classes', description: 'Classes you teach this session' },
];

export const ADMIN_REPORT_CARD_MENU: readonly MenuItem[] = [
  REPORT_SHEET_MENU.settings,
  { ...SCREEN.reportCards, description: 'Per student or a whole class, print or PDF' },
  REPORT_SHEET_MENU.ratings,
  REPORT_SHEET_MENU.comments,
  { ...SCREEN.reportApprovals, description: 'Approve, send back and release report cards' },
];

export const ADMIN_RESULTS_MENU: readonly MenuItem[] = [
  ...RESULT_WORK_MENU,
  { ...SCREEN.broadsheet, description: 'Class or whole school, with positions; CSV' },
  { to: '/publish-results', label: 'Publish Results', description: 'Release a class’s term results to students' },
  { to: '/result-audit', label: 'Result History', description: 'Who changed which score, and when' },
  RESULT_PIN_SCREENS.batches,
];

export const ADMIN_ATTENDANCE_MENU: readonly MenuItem[] = [ATT.register, ATT.absent, ATT.month, ATT.student];

export const ADMIN_FEES_MENU: readonly MenuItem[] = [BURSARY_FEE_SCREENS.payments, BURSARY_FEE_SCREENS.schedules];

/** The bursar's office: the admin's, and a staff member's with the bursar capability. */
export const ADMIN_BURSARY_MENU: readonly MenuItem[] = [
  BUR.record,
  BUR.ledger,
  BUR.statement,
  DISCOUNT_SCREEN,
  BUR.capabilities,
  REP.debtors,
  REP.collections,
  TRF.queue,
  FEE_RELEASES_SCREEN,
];
export const STAFF_BURSARY_MENU: readonly MenuItem[] = [
  BUR.record,
  BUR.ledger,
  BUR.statement,
  DISCOUNT_SCREEN,
  BURSARY_FEE_SCREENS.schedules,
  REP.debtors,
  REP.collections,
  TRF.queue,
  FEE_RELEASES_SCREEN,
  // The bursar marks scratch cards sold (the admin reaches the batches from Results).
  RESULT_PIN_SCREENS.batches,
];

/** The bursary menu with the count of reported transfers waiting beside "Payments to Confirm". */
function useBursaryMenu(items: readonly MenuItem[]): readonly MenuItem[] {
  const waiting = useWaitingTransfers();
  if (!waiting) return items;
  return items.map((i) => (i.to === TRF.queue.to ? { ...i, badge: TRANSFER_REPORT_SCREEN_LABELS.waitingBadge(waiting) } : i));
}

/** Notices to parents: sending, the log, and how they are worded and sent. */
export const ADMIN_NOTICES_MENU: readonly MenuItem[] = [NOTE.blasts, NOTE.messages, NOTE.templates, NOTE.settings, NOTE.inbox];

/** End of session (issue 34): the next session, promotion, result-checker PINs. */
export const ADMIN_SESSION_END_MENU: readonly MenuItem[] = [ROLLOVER_SCREEN, END.promotion, END.pins];

export const ADMIN_ACCOUNT_MENU: readonly MenuItem[] = [
  { to: '/sign-in-blocks', label: 'Sign-in Blocks', description: 'Accounts blocked after wrong passwords' },
  SCREEN.changePassword,
];

/** The admin home's groups: set-up order first, then the daily work. */
function adminGroups(bursary: readonly MenuItem[]): readonly { title: string; items: readonly MenuItem[] }[] {
  return [
    { title: 'School details', items: ADMIN_SCHOOL_MENU },
    { title: 'Session and calendar', items: ADMIN_CALENDAR_MENU },
    { title: 'Classes and subjects', items: ADMIN_CLASSES_MENU },
    { title: 'Assessment and grading', items: ADMIN_ASSESSMENT_MENU },
    { title: 'Staff', items: ADMIN_STAFF_MENU },
    { title: 'Students', items: ADMIN_STUDENTS_MENU },
    { title: 'Teaching assignments', items: ADMIN_TEACHING_MENU },
    { title: 'Fees', items: ADMIN_FEES_MENU },
    { title: 'Report cards', items: ADMIN_REPORT_CARD_MENU },
    // After the set-up steps' nine (the checklist's order, first-run.spec.ts): families come once the school runs.
    { title: 'Parents', items: ADMIN_PARENTS_MENU },
    { title: 'Results', items: ADMIN_RESULTS_MENU },
    { title: 'Attendance', items: ADMIN_ATTENDANCE_MENU },
    { title: 'Bursary', items: bursary },
    { title: 'Notices', items: ADMIN_NOTICES_MENU },
    { title: 'Security and account', items: ADMIN_ACCOUNT_MENU },
    // After every group: a school ends its session once a year.
    { title: SESSION_END_MENU_TITLE, items: ADMIN_SESSION_END_MENU },
  ];
}

export function AdminHome() {
  const welcome = useWelcome();
  const [menuVisible, setMenuVisible] = useState(true);
  const bursaryMenu = useBursaryMenu(ADMIN_BURSARY_MENU);
  return (
    <PageLayout
      title="Admin Dashboard"
      back={false}
      width="max-w-6xl"
      actions={
        <Button variant="secondary" onClick={() => setMenuVisible((v) => !v)} aria-expanded={menuVisible} aria-controls="admin-menu">
          {menuVisible ? 'Hide Menu' : 'Show Menu'}
        </Button>
      }
    >
      <WelcomeBanner message={welcome} />
      <SetupChecklist />
      <DashboardSlot of="admin" label="Loading the school's figures" />
      {menuVisible ? (
        <>
          {/* Every screen stays one tap away below the dashboard. */}
          <h2 className="mb-3">All screens</h2>
          <div id="admin-menu" className="flex flex-col gap-6">
            {adminGroups(bursaryMenu).map((g) => (
              <MenuSection key={g.title} title={g.title} items={g.items} />
            ))}
          </div>
        </>
      ) : (
        <PeopleOverview />
      )}
    </PageLayout>
  );
}

export const STAFF_MENU_GROUPS: readonly { title: string; items: readonly MenuItem[] }[] = [
  {
    title: 'Student Management',
    items: [
      SCREEN.studentReg,
      SCREEN.studentInfos,
      SCREEN.updateStudent,
      SCREEN.deleteStudent,
      SCREEN.findStudent,
      SCREEN.studentList,
      SCREEN.importStudents,
      SCREEN.newSignIns,
    ],
  },
  {
    title: 'Result Management',
    items: [
      ...RESULT_WORK_MENU,
      SCREEN.reportCards,
      REPORT_SHEET_MENU.ratings,
      REPORT_SHEET_MENU.comments,
      { ...SCREEN.reportApprovals, description: 'Submit your arm’s report cards' },
      SCREEN.broadsheet,
    ],
  },
  {
    title: 'Attendance',
    items: [ATT.month, ATT.student],
  },
  {
    title: 'Staff Management',
    items: [SCREEN.staffDetails, SCREEN.findStaff, SCREEN.staffList],
  },
  {
    title: 'Fees',
    items: [{ to: '/PaymentForm', label: 'Fee Payments', description: 'Payment history and class reports' }],
  },
];

export function StaffHome() {
  const welcome = useWelcome();
  const bursar = useHasCapability('bursar').allowed;
  const bursaryMenu = useBursaryMenu(STAFF_BURSARY_MENU);
  return (
    <PageLayout title="Staff Dashboard" back={false} width="max-w-6xl">
      <WelcomeBanner message={welcome} />
      <SentBackNotice />
      <div className="flex flex-col gap-6">
        {/* A teacher's daily work first: their classes, then the spec's groups. */}
        <TeacherClasses />
        {/* The term at a glance (issue 36), right below their classes: the sheets' progress and the form arm's day, then the bursar's money; the menu below. */}
        <DashboardSlot of="staff" label="Loading your classes' figures" />
        {bursar && <DashboardSlot of="bursar" label="Loading the bursary figures" />}
        {STAFF_MENU_GROUPS.map((g) => (
          <MenuSection key={g.title} title={g.title} items={g.items} />
        ))}
        {bursar && <MenuSection title="Bursary" items={bursaryMenu} />}
        <MenuSection title="My account" items={[SCREEN.changePassword]} />
      </div>
    </PageLayout>
  );
}

export const STUDENT_MENU: readonly MenuItem[] = [
  { to: '/PaymentForm', label: 'Pay Fees', description: 'Pay school fees online' },
  { to: '/StudentInfos', label: 'View My Profile', description: 'Your details on record' },
  { to: '/ResultsCheck', label: 'View All My Results', description: 'Every term, every subject' },
  { to: '/check-a-result', label: 'Check Current Result', description: 'This term’s result sheet' },
  { to: '/report-card', label: 'My Report Card', description: 'Print or download as PDF' },
  ATT.mine,
  MY_STATEMENT_SCREEN,
  TRF.mine,
  SCREEN.changePassword,
];

export function StudentHome() {
  const welcome = useWelcome();
  const session = useSession();
  return (
    <PageLayout title="Student Dashboard" back={false}>
      <WelcomeBanner message={welcome} />
      {session && (
        <p className="mb-4 text-sm text-slate-600">
          Admission number: <span className="font-semibold text-slate-900">{session.publicId}</span>
        </p>
      )}
      {/* The term at a glance (issue 36), then every screen as before. */}
      <div className="mb-6">
        <DashboardSlot of="student" />
      </div>
      <MenuGrid items={STUDENT_MENU} label="Student menu" />
    </PageLayout>
  );
}
