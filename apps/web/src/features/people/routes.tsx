import { Navigate, type RouteObject } from 'react-router';
import { ADMIN_ONLY, ANY_ROLE, forRoles, STAFF_AND_ADMIN } from '../../lib/guards';
import { lazyNamed as named, lazyPage as page } from '../../lib/lazy-page';

const studentReg = page(() => import('./pages/student-reg'));
const staffReg = page(() => import('./pages/staff-reg'));
const staffList = page(() => import('./pages/staff-list'));
const staffProfile = page(() => import('./pages/staff-profile'));
const staffEdit = page(() => import('./pages/staff-edit'));
const bio = () => import('./pages/bio-data');
const find = () => import('./pages/find-person');
const studentData = () => import('./pages/student-data');
const imports = () => import('./pages/import-people');

/**
 * Students and staff screens, each behind the roles the server enforces. The spec's
 * undefined /staff/... targets are real routes, at top level and under /dashboard.
 */
export const peopleRoutes: RouteObject[] = [
  forRoles(STAFF_AND_ADMIN, [
    { path: '/StudentReg', lazy: studentReg },
    { path: '/UpdateStudentDetails', lazy: page(() => import('./pages/update-student')) },
    { path: '/DeleteStudent', lazy: page(() => import('./pages/delete-student')) },
    { path: '/DeleteStudent/:_id', lazy: page(() => import('./pages/delete-student')) },
    { path: '/CheckAStudentData', lazy: named(find, 'FindStudentPage') },
    { path: '/StaffDetails', lazy: page(() => import('./pages/staff-details')) },
    { path: '/CheckAStaffData', lazy: named(find, 'FindStaffPage') },
    { path: '/student-data', lazy: named(studentData, 'StudentDataPage') },
    { path: '/students/:admission_number', lazy: named(studentData, 'StudentDetailPage') },
    { path: '/student-BioData/:_id', lazy: named(bio, 'StudentBioDataPage') },
    { path: '/staff-BioData/:_id', lazy: named(bio, 'StaffBioDataPage') },
    { path: '/Delete-message', lazy: named(bio, 'DeleteMessagePage') },
    { path: '/import/students', lazy: named(imports, 'ImportStudentsPage') },
    { path: '/new-sign-ins', lazy: page(() => import('./pages/new-sign-ins')) },
    { path: '/staff', lazy: staffList },
    { path: '/staff/:staff_id', lazy: staffProfile },
    {
      path: '/dashboard',
      lazy: page(() => import('./pages/dashboard-layout')),
      children: [
        { index: true, element: <Navigate to="staff" replace /> },
        { path: 'staff', lazy: staffList },
        { path: 'staff/:staff_id', lazy: staffProfile },
        forRoles(ADMIN_ONLY, [
          { path: 'staff/create', lazy: staffReg },
          { path: 'staff/:staff_id/edit', lazy: staffEdit },
        ]),
      ],
    },
  ]),
  forRoles(ADMIN_ONLY, [
    { path: '/StaffReg', lazy: staffReg },
    { path: '/UpdateStaffDetails', lazy: page(() => import('./pages/update-staff')) },
    { path: '/DeleteStaff', lazy: page(() => import('./pages/delete-staff')) },
    { path: '/staff/create', lazy: staffReg },
    { path: '/staff/:staff_id/edit', lazy: staffEdit },
    { path: '/import/staff', lazy: named(imports, 'ImportStaffPage') },
  ]),
  forRoles(ANY_ROLE, [{ path: '/StudentInfos', lazy: page(() => import('./pages/student-infos')) }]),
];
