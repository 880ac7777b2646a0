import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createStaff, createStudent, runTag, type OwnStaff, type OwnStudent } from '../school';

/**
 * Students and staff screens. Every test creates the records it changes; the lists and the sign-ins
 * stand on the spec's own data (fixture school.ts): arms of this run (JSS 1, 2, 3 and SSS 3), a
 * student in JSS 1 and one in SSS 3, a staff member of this run who signs in (Grace Okafor…) and
 * another to be found (Yusuf Bello…, an English teacher).
 */

const RUN = runTag();
let seq = 0;
const tag = () => `${RUN}${(seq++).toString(36)}`.toLowerCase();
const ARMS = { jss1: '', jss2: '', jss3: '', sss3: '' };
let PUPIL: OwnStudent; // in ARMS.jss1
let SENIOR = ''; // a student in ARMS.sss3
let STAFF: OwnStaff;
let OTHER_STAFF: OwnStaff;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  ARMS.jss1 = await createArm(api, 'JSS 1', RUN);
  ARMS.jss2 = await createArm(api, 'JSS 2', RUN);
  ARMS.jss3 = await createArm(api, 'JSS 3', RUN);
  ARMS.sss3 = await createArm(api, 'SSS 3', RUN);
  PUPIL = await createStudent(api, ARMS.jss1, tag());
  SENIOR = (await createStudent(api, ARMS.sss3, tag())).admission_number;
  STAFF = await createStaff(api, tag(), [], { first_name: 'Grace', last_name: `Okafor${RUN}` });
  OTHER_STAFF = await createStaff(api, tag(), [], {
    first_name: 'Yusuf',
    last_name: `Bello${RUN}`,
    gender: 'M',
    designation: 'English Teacher',
  });
});

/** A student of the spec's JSS 2 arm, Temi Lawal… of 3 Ring Road, Ibadan. */
async function newStudent(request: APIRequestContext, over: { first_name?: string } = {}) {
  const t = tag();
  return createStudent(await asAdmin(request), ARMS.jss2, t, {
    first_name: 'Temi',
    last_name: `Lawal${t}`,
    email: `temi.${t}@e2e.school`,
    date_of_birth: '2011-06-01',
    fathers_name: 'Mr Lawal',
    home_address: '3 Ring Road, Ibadan',
    ...over,
  });
}

/** A chemistry teacher, Bayo Ade…. */
async function newStaff(request: APIRequestContext) {
  const t = tag();
  return createStaff(await asAdmin(request), t, [], {
    first_name: 'Bayo',
    last_name: `Ade${t}`,
    gender: 'M',
    designation: 'Chemistry Teacher',
    department: 'Sciences',
  });
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

test.describe('registration and first sign-in', () => {
  test('admin registers a student, who signs in with the one-time password, changes it and sees only their own profile', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'admin');
    await page.goto('/StudentReg');
    await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
    await expectAccessible(page);

    // Client rules: every required field named, the first one focused; editing clears its error.
    await page.getByRole('button', { name: 'Register Student' }).click();
    for (const msg of [
      'First name is required',
      'Last name is required',
      'Date of birth is required',
      'Class is required',
      "Father's name is required",
      'Home address is required',
    ]) {
      await expect(page.getByText(msg, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('First name')).toBeFocused();
    await page.getByLabel('First name').fill('Ife');
    await expect(page.getByText('First name is required')).toHaveCount(0);

    const t = tag();
    const email = `ife.${t}@e2e.school`;
    await page.getByLabel('Last name').fill(`Balogun${t}`);
    await page.getByLabel('Email').fill(PUPIL.email);
    await page.getByLabel('Phone number').fill('0803 555 1234');
    await page.getByLabel('Gender').selectOption('F');
    await page.getByLabel('Date of birth').fill('2012-02-10');
    await page.getByLabel('Class', { exact: true }).selectOption(ARMS.jss1);
    await page.getByLabel("Father's name").fill('Mr Balogun');
    await page.getByLabel('Home address').fill('7 Bank Road, Ilorin');
    // The server's 400 field error shows under its field.
    await page.getByRole('button', { name: 'Register Student' }).click();
    await expect(page.getByText('A user with this email already exists.')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Register Student' }).click();

    const success = page.getByTestId('registration-success');
    await expect(success).toContainText(new RegExp(`Student Ife Balogun${t} registered successfully with admission number: STU-\\d{4}\\.`));
    const otp = (await page.getByTestId('one-time-password').textContent())!.trim();
    expect(otp).toMatch(/^\S{4}-\S{4}-\S{4}$/);
    await expect(page.getByTestId('sign-in-slip')).toContainText('/StudentLogin');
    await expectAccessible(page);
    const admission = /STU-\d{4}/.exec((await success.textContent())!)![0];
    // 3 s later the form is fresh again; the one-time password is still shown.
    await expect(page.getByLabel('First name')).toHaveValue('', { timeout: 6000 });
    await expect(page.getByTestId('one-time-password')).toHaveText(otp);

    // The new student signs in with the slip and must choose a password first.
    await signOut(page);
    await page.goto('/StudentLogin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(otp);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/change-password$/);
    await expectAccessible(page);
    await page.getByLabel('Current password').fill(otp);
    await page.getByLabel('New password', { exact: true }).fill('Ife-Own-Pass-2026');
    await page.getByLabel('Confirm new password').fill('Ife-Own-Pass-2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/StudentHomePage$/);

    await page.getByRole('link', { name: /View My Profile/ }).click();
    await expect(page).toHaveURL(/\/StudentInfos$/);
    await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
    await expect(page.getByText(admission, { exact: true })).toBeVisible();
    await expect(page.getByText('7 Bank Road, Ilorin')).toBeVisible();
    // Nobody else's record is on the page.
    await expect(page.getByText(PUPIL.admission_number, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Registered Students' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('admin registers staff; success goes to /staff after 3 s with the one-time password', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await page.goto('/StaffReg');
    await expect(page.getByRole('heading', { name: 'Staff Registration' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Staff' }).click();
    for (const msg of [
      'Username is required',
      'First name is required',
      'Last name is required',
      'Email is required',
      'Phone number is required',
      'Designation is required',
      'Department is required',
    ]) {
      await expect(page.getByText(msg, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('Username')).toBeFocused();
    const t = tag();
    await page.getByLabel('Username').fill(`sola${t}`);
    await page.getByLabel('First name').fill('Sola');
    await page.getByLabel('Last name').fill(`Ojo${t}`);
    await page.getByLabel('Email').fill(`sola.${t}@e2e.school`);
    await page.getByLabel('Phone number').fill('123');
    await page.getByLabel('Designation').fill('Biology Teacher');
    await page.getByLabel('Department').fill('Sciences');
    await page.getByLabel('Marital status').selectOption('M');
    await page.getByRole('button', { name: 'Create Staff' }).click();
    await expect(page.getByText('Invalid phone number format')).toBeVisible();
    await expect(page.getByLabel('Phone number')).toBeFocused();
    await page.getByLabel('Phone number').fill('08061234567');
    await expect(page.getByText('Invalid phone number format')).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create Staff' }).click();
    await expect(page.getByTestId('registration-success')).toContainText(
      new RegExp(`Staff Sola Ojo${t} created successfully! Staff ID: STAFF-\\d{4}`),
    );
    const otp = (await page.getByTestId('one-time-password').textContent())!.trim();
    await expect(page).toHaveURL(/\/staff$/, { timeout: 6000 });
    await expect(page.getByRole('heading', { name: 'Staff List' })).toBeVisible();
    await expect(page.getByTestId('one-time-password')).toHaveText(otp);
    await expect(page.getByRole('link', { name: `Sola Ojo${t}` })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('lists and details', () => {
  test('StudentInfos: grouped by class, one expanded at a time, filters, empty state, export', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', STAFF);
    await page.goto('/StudentInfos');
    await expect(page.getByRole('heading', { name: 'Registered Students' })).toBeVisible();
    await expect(page.getByRole('heading', { name: new RegExp(`^${ARMS.jss1}`) })).toBeVisible();
    const rows = page.getByRole('button', { expanded: false });
    await rows.first().click();
    await expect(page.getByRole('button', { expanded: true })).toHaveCount(1);
    await expect(page.getByText('Home address')).toBeVisible();
    await page.getByRole('button', { expanded: false }).nth(1).click();
    await expect(page.getByRole('button', { expanded: true })).toHaveCount(1);
    await expectAccessible(page);

    await page.getByLabel('Class').selectOption(ARMS.sss3);
    await expect(page.getByRole('heading', { name: new RegExp(`^${ARMS.sss3}`) })).toBeVisible();
    await expect(page.getByRole('heading', { name: new RegExp(`^${ARMS.jss1}`) })).toHaveCount(0);
    await page.getByLabel(/Search by name/).fill('no-such-student-anywhere');
    await expect(page.getByText('No students found')).toBeVisible();

    await page.getByLabel('Class').selectOption('');
    await page.getByLabel(/Search by name/).fill('');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toBe('students.csv');
  });

  test('StaffDetails expands a member; student-data links to a student detail with Back to List', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', STAFF);
    await page.goto('/StaffDetails');
    await expect(page.getByRole('heading', { name: 'Staff Members' })).toBeVisible();
    await page.getByRole('button', { name: `${STAFF.first_name} ${STAFF.last_name}` }).click();
    await expect(page.getByText(STAFF.staff_id, { exact: true })).toBeVisible();
    await expect(page.getByText('Marital status')).toBeVisible();
    await expectAccessible(page);

    await page.goto('/student-data');
    await expect(page.getByRole('heading', { name: 'Student List' })).toBeVisible();
    await page.getByRole('list', { name: 'Students' }).getByRole('link').nth(1).click();
    await expect(page).toHaveURL(/\/students\/STU-\d{4}$/);
    await expect(page.getByRole('heading', { name: 'Student Details' })).toBeVisible();
    await expect(page.getByText('Admission number')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to List' }).first().click();
    await expect(page).toHaveURL(/\/student-data$/);
  });

  test('find a student and a staff member, with the spec messages; reset a student password', async ({ page, request }) => {
    const s = await newStudent(request);
    await signInViaApi(page, request, 'admin');
    await page.goto('/CheckAStudentData');
    await expect(page.getByRole('heading', { name: 'Find a Student' })).toBeVisible();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('Please enter admission number')).toBeVisible();
    await page.getByLabel('Admission number').fill('stu-9999');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toHaveText('Student not found with this admission number');
    await page.getByLabel('Admission number').fill(s.admission_number);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('toast-success')).toHaveText(/Student details retrieved successfully/);
    await expect(page.getByText('3 Ring Road, Ibadan')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('button', { name: 'Yes, reset password' }).click();
    await expect(page.getByTestId('password-reset-done')).toContainText('Password reset.');
    const otp = (await page.getByTestId('one-time-password').textContent())!.trim();
    const login = await request.post('/api/student/login/', { data: { email: s.email, password: otp } });
    expect((await login.json()).data.must_change_password).toBe(true);

    await page.goto('/CheckAStaffData');
    await expect(page.getByRole('heading', { name: 'Find a Staff Member' })).toBeVisible();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('Please enter staff ID')).toBeVisible();
    await page.getByLabel('Staff ID').fill('STAFF-9999');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toHaveText('Staff not found with this ID');
    await page.getByLabel('Staff ID').fill(OTHER_STAFF.staff_id.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('heading', { name: `${OTHER_STAFF.first_name} ${OTHER_STAFF.last_name}` })).toBeVisible();
    await expect(page.getByText('English Teacher')).toBeVisible();
    await expectAccessible(page);
  });

  test('legacy bio-data screens: details with Update, Delete and Back; delete goes to Delete-message', async ({ page, request }) => {
    const s = await newStudent(request, { first_name: 'Legacy' });
    const st = await newStaff(request);
    await signInViaApi(page, request, 'admin');
    await page.goto(`/staff-BioData/${st.id}`);
    await expect(page.getByRole('heading', { name: 'Staff Bio Data' })).toBeVisible();
    await expect(page.getByText('Chemistry Teacher')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Update' })).toHaveAttribute('href', `/staff/${st.staff_id}/edit`);
    await expectAccessible(page);

    await page.goto(`/student-BioData/${s.id}`);
    await expect(page.getByRole('heading', { name: 'Student Bio Data' })).toBeVisible();
    await expect(page.getByText(s.admission_number)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('all results of this student will also be deleted')).toBeVisible();
    await page.getByRole('button', { name: 'Yes, delete permanently' }).click();
    await expect(page).toHaveURL(/\/Delete-message$/);
    await expect(page.getByText('Deleted Successfully')).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('updates', () => {
  test('UpdateStudentDetails loads on blur, guards the password pair, and replaces the form on success', async ({ page, request }) => {
    const s = await newStudent(request);
    await signInViaApi(page, request, 'staff', STAFF);
    await page.goto('/UpdateStudentDetails');
    await expect(page.getByRole('heading', { name: 'Update Student Details' })).toBeVisible();
    await page.getByLabel('Admission number').fill('stu-9999');
    await page.getByLabel('Admission number').blur();
    await expect(page.getByRole('alert')).toHaveText('Student with admission number STU-9999 not found.');
    await page.getByLabel('Admission number').fill(s.admission_number.toLowerCase());
    await expect(page.getByLabel('Admission number')).toHaveValue(s.admission_number);
    await page.getByLabel('Admission number').blur();
    await expect(page.getByLabel('First name')).toHaveValue('Temi');
    await expect(page.getByLabel('Home address')).toHaveValue('3 Ring Road, Ibadan');
    await expectAccessible(page);

    await page.getByLabel('Password', { exact: true }).fill('New-Pass-2026');
    await page.getByLabel('Confirm password').fill('Other-Pass-2026');
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Update Student' })).toBeDisabled();
    await page.getByLabel('Password', { exact: true }).fill('');
    await page.getByLabel('Confirm password').fill('');
    await expect(page.getByRole('button', { name: 'Update Student' })).toBeEnabled();

    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Update Student' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByLabel('First name')).toBeFocused();
    await page.getByLabel('First name').fill('Temitope');
    await page.getByLabel('Class', { exact: true }).selectOption(ARMS.jss3);
    await page.getByRole('button', { name: 'Update Student' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'updated successfully' }).first()).toHaveText(
      `Student Temitope ${s.last_name} (${s.admission_number}) updated successfully`,
    );
    await expect(page.getByLabel('First name')).toHaveCount(0);
    await expectAccessible(page);
  });

  test('UpdateStaffDetails by staff ID, and the staff edit form under /dashboard', async ({ page, request }) => {
    const st = await newStaff(request);
    await signInViaApi(page, request, 'admin');
    await page.goto('/UpdateStaffDetails');
    await expect(page.getByRole('heading', { name: 'Update Staff Details' })).toBeVisible();
    await page.getByRole('button', { name: 'Update Staff' }).click();
    await expect(page.getByText('Staff ID is required')).toBeVisible();
    await page.getByLabel('Staff ID').fill(st.staff_id);
    await page.getByLabel('Staff ID').blur();
    await expect(page.getByLabel('Designation')).toHaveValue('Chemistry Teacher');
    await page.getByLabel('Department').fill('Science Department');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Update Staff' }).click();
    await expect(page.getByText(`Staff Bayo ${st.last_name} (${st.staff_id}) updated successfully`).first()).toBeVisible();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/staff$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.getByRole('link', { name: `Bayo ${st.last_name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/staff/${st.staff_id}$`));
    await expect(page.getByText('Science Department')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/staff/${st.staff_id}/edit$`));
    await page.getByLabel('Designation').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Designation is required')).toBeVisible();
    await expect(page.getByLabel('Designation')).toBeFocused();
    await page.getByLabel('Designation').fill('Head of Chemistry');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/staff/${st.staff_id}$`));
    await expect(page.getByText('Staff updated successfully')).toBeVisible();
    await expect(page.getByText('Head of Chemistry')).toBeVisible();

    // The same screens exist at top level.
    await page.goto(`/staff/${st.staff_id}/edit`);
    await expect(page.getByRole('heading', { name: 'Edit Staff' })).toBeVisible();
    await page.goto(`/staff/${st.staff_id}`);
    await expect(page.getByRole('heading', { name: 'Staff Profile' })).toBeVisible();
  });
});

test.describe('deletion', () => {
  test('DeleteStudent: search, two-step confirmation, one success message', async ({ page, request }) => {
    const s = await newStudent(request);
    await signInViaApi(page, request, 'staff', STAFF);
    await page.goto('/DeleteStudent');
    await expect(page.getByRole('heading', { name: 'Delete Student' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Student' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please search for a student first');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a Student ID');
    await page.getByLabel(/Student ID/).fill('STU-9999');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toHaveText('Student not found. Please check the ID and try again.');
    await page.getByLabel(/Student ID/).fill(s.admission_number);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(`Temi ${s.last_name}`)).toBeVisible();
    await expect(page.getByText(ARMS.jss2)).toBeVisible();
    await expect(page.getByText('all results of this student will also be deleted')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete Student' }).click();
    await expect(page.getByText('Deleting this student is permanent and cannot be undone.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete Student' }).click();
    await page.getByRole('button', { name: 'Yes, delete permanently' }).click();
    await expect(page.getByText(`Student with ID ${s.admission_number} was successfully deleted`)).toBeVisible();
    // One message per event: the banner, no second toast.
    await expect(page.getByTestId('toast-success')).toHaveCount(0);
    const token = await apiToken(request, 'admin');
    const gone = await request.get(`/api/students/${s.admission_number}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status()).toBe(404);
  });

  test('DeleteStudent/:_id opens with the student found; DeleteStaff confirms then deletes', async ({ page, request }) => {
    const s = await newStudent(request);
    const st = await newStaff(request);
    await signInViaApi(page, request, 'admin');
    await page.goto(`/DeleteStudent/${s.id}`);
    await expect(page.getByText(`Temi ${s.last_name}`)).toBeVisible();
    await expect(page.getByLabel(/Student ID/)).toHaveValue(s.admission_number);

    await page.goto('/DeleteStaff');
    await expect(page.getByRole('heading', { name: 'Delete Staff' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Staff' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a Staff ID');
    await page.getByLabel('Staff ID').fill(st.staff_id);
    await page.getByRole('button', { name: 'Delete Staff' }).click();
    await expect(page.getByText(`Delete Bayo ${st.last_name} (${st.staff_id})`)).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Yes, delete permanently' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `Successfully deleted staff with ID: ${st.staff_id}` })
        .first(),
    ).toBeVisible();
  });
});

test.describe('bulk import', () => {
  const header =
    'first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,mothers_phone,home_address';

  test('a CSV with a bad row is previewed with row and field named; fixed, it imports and prints slips', async ({ page, request }) => {
    const t = tag();
    // The third row names the arm as typed loosely: lower case, no space after the level.
    const loose = `jss1${ARMS.jss1.slice('JSS 1 '.length)}`;
    const rows = [
      `Kelechi,Nwosu,kelechi.${t}@e2e.school,08031110001,M,2011-01-02,${ARMS.jss1},Mr Nwosu,,,,"1 Aba Road, Aba"`,
      `Halima,Musa,not-an-email,08031110002,F,2011-03-04,${ARMS.jss1},Mr Musa,,,,2 Kano Road`,
      `Emeka,Obi,emeka.${t}@e2e.school,08031110003,M,04/05/2011,${loose},Mr Obi,,,,3 Enugu Road`,
    ];
    await signInViaApi(page, request, 'staff', STAFF);
    await page.goto('/import/students');
    await expect(page.getByRole('heading', { name: 'Import Students' })).toBeVisible();
    const template = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download template' }).click();
    expect((await template).suggestedFilename()).toBe('students-template.csv');
    await expectAccessible(page);

    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText('3 rows in the file; 2 ready to import.');
    const errors = page.getByRole('table', { name: /Errors/ });
    await expect(errors.getByRole('row').nth(1)).toHaveText(/3\s*Email\s*Invalid email format/);
    await expect(page.getByRole('button', { name: /^Import/ })).toBeDisabled();
    await expectAccessible(page);

    rows[1] = rows[1]!.replace('not-an-email', `halima.${t}@e2e.school`);
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText('3 rows in the file; 3 ready to import.');
    await page.getByRole('button', { name: 'Import 3 students' }).click();
    await expect(page.getByText('3 students imported.').first()).toBeVisible();
    const slips = page.getByTestId('sign-in-slip');
    await expect(slips).toHaveCount(3);
    await expect(slips.nth(2)).toContainText('Emeka Obi');
    await expect(slips.nth(2)).toContainText(ARMS.jss1);
    await expect(slips.nth(2)).toContainText(/STU-\d{4}/);
    await expect(slips.nth(2)).toContainText('/StudentLogin');
    await expect(page.getByRole('button', { name: 'Print sign-in slips' })).toBeVisible();
    await expectAccessible(page);

    // A slip works: the imported student signs in and must change the password.
    const otp = (await slips.nth(0).getByTestId('slip-password').textContent())!.trim();
    const login = await request.post('/api/student/login/', { data: { email: `kelechi.${t}@e2e.school`, password: otp } });
    expect(login.status()).toBe(200);
    expect((await login.json()).data.must_change_password).toBe(true);
  });
});

test('staff may manage students but not register staff; students cannot open the staff screens', async ({ page, request }) => {
  await signInViaApi(page, request, 'staff', STAFF);
  await page.goto('/StaffReg');
  await expect(page).toHaveURL(/\/staffHomePage$/);
  await page.goto('/import/staff');
  await expect(page).toHaveURL(/\/staffHomePage$/);
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Staff List' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Staff' })).toHaveCount(0);

  await signOut(page);
  await signInViaApi(page, request, 'student', PUPIL);
  await page.goto('/StaffDetails');
  await expect(page).toHaveURL(/\/StudentHomePage$/);
  await page.goto('/StudentInfos');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByText(PUPIL.admission_number, { exact: true })).toBeVisible();
  await expect(page.getByText(SENIOR, { exact: true })).toHaveCount(0);
});

test('people screens fit a 360 px phone without sideways scrolling', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInViaApi(page, request, 'admin');
  for (const path of [
    '/StudentReg',
    '/StudentInfos',
    '/StaffReg',
    '/UpdateStudentDetails',
    '/DeleteStudent',
    '/import/students',
    `/staff/${STAFF.staff_id}`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
