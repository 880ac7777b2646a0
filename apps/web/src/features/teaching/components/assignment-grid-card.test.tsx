// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { StaffRecord } from '@portal/domain/people-constants';
import type { SessionAssignments, TeachingStructure } from '@portal/domain/teaching';
import { ToastProvider } from '../../../lib/toast';
import { GridCard } from './assignment-grid-card';

afterEach(cleanup);

// A school's grid: 12 arms of JSS 1, 3 subjects offered, 60 members of staff. Every cell's select may
// name every member of staff, so the lists are drawn only when a select is reached for (focus or a
// press): drawn for all, this grid alone is 12 × 4 × 61 options.
const ARMS = 12;
const STAFF = 60;
const structure: TeachingStructure = {
  arms: Array.from({ length: ARMS }, (_, i) => ({
    id: i + 1,
    level: 'JSS 1' as const,
    arm: String.fromCharCode(65 + i),
    name: `JSS 1${String.fromCharCode(65 + i)}`,
    retired: false,
    students: 30,
  })),
  subjects: ['Mathematics', 'English Language', 'Basic Science'].map((name, i) => ({
    id: i + 1,
    name,
    code: name.slice(0, 3).toUpperCase(),
    section: 'ALL' as never,
    retired: false,
  })),
  offerings: [{ class_level: 'JSS 1', subjects: [1, 2, 3].map((subject_id) => ({ subject_id, compulsory: true })) }],
  streams: [],
};
const staff: StaffRecord[] = Array.from({ length: STAFF }, (_, i) => {
  const n = i + 1;
  const person = { email: `t${n}@school.ng`, first_name: 'Teacher', last_name: `No${n}`, user_type: 2 as const };
  return {
    id: n,
    staff_id: `STAFF-${String(n).padStart(4, '0')}`,
    username: null,
    ...person,
    phone_number: '08051234567',
    gender: 'F',
    designation: 'Teacher',
    department: 'General',
    marital_status: 'S',
    user: person,
  };
});
const data: SessionAssignments = {
  session_id: 2,
  enforce_assignments: false,
  // Teacher No7 already teaches Mathematics in JSS 1A; Teacher No9 is the form teacher of JSS 1B.
  cells: [{ arm_id: 1, subject_id: 1, staff: [{ id: 7, staff_id: 'STAFF-0007', name: 'Teacher No7' }] }],
  form_teachers: [{ arm_id: 2, staff: { id: 9, staff_id: 'STAFF-0009', name: 'Teacher No9' } }],
  windows: [],
};

function renderGrid() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <GridCard sessionId={2} data={data} structure={structure} staff={staff} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}
const select = (name: string) => screen.getByRole<HTMLSelectElement>('combobox', { name });
const labels = (s: HTMLSelectElement) => [...s.options].map((o) => o.textContent);

it('draws each list of staff only when its select is reached for; what a cell shows is there from the start', () => {
  renderGrid();
  // Before anyone reaches for them: the placeholder, and a form teacher's select its chosen teacher.
  expect(labels(select('Add a teacher of Basic Science in JSS 1L'))).toEqual(['Assign a teacher…']);
  expect(labels(select('Add a teacher of Mathematics in JSS 1A'))).toEqual(['Add another…']);
  expect(labels(select('Form teacher of JSS 1A'))).toEqual(['None']);
  expect(select('Form teacher of JSS 1B').value).toBe('9');
  expect(labels(select('Form teacher of JSS 1B'))).toEqual(['None', 'Teacher No9 (STAFF-0009)']);
  expect(document.querySelectorAll('option').length).toBeLessThan(ARMS * 5);

  // Focused (the keyboard) or pressed (a finger, a mouse): the whole list, less who already teaches there.
  fireEvent.focus(select('Add a teacher of Mathematics in JSS 1A'));
  expect(labels(select('Add a teacher of Mathematics in JSS 1A'))).toHaveLength(STAFF);
  expect(labels(select('Add a teacher of Mathematics in JSS 1A'))).not.toContain('Teacher No7 (STAFF-0007)');
  fireEvent.pointerDown(select('Form teacher of JSS 1C'));
  expect(labels(select('Form teacher of JSS 1C'))).toHaveLength(STAFF + 1);
  // The others stay short.
  expect(labels(select('Add a teacher of Mathematics in JSS 1B'))).toEqual(['Assign a teacher…']);
});

it('a pick from a list drawn on demand is an unsaved change of that cell, and the teacher leaves its list', () => {
  renderGrid();
  const add = select('Add a teacher of English Language in JSS 1D');
  fireEvent.pointerDown(add);
  fireEvent.change(add, { target: { value: '12' } });
  expect(screen.getByText('1 unsaved change.')).toBeTruthy();
  expect(screen.getByRole('list', { name: 'Teachers of English Language in JSS 1D' }).textContent).toContain('Teacher No12');
  expect(labels(select('Add a teacher of English Language in JSS 1D'))).not.toContain('Teacher No12 (STAFF-0012)');

  const form = select('Form teacher of JSS 1E');
  fireEvent.focus(form);
  fireEvent.change(form, { target: { value: '30' } });
  expect(select('Form teacher of JSS 1E').value).toBe('30');
  expect(screen.getByText('2 unsaved changes.')).toBeTruthy();
});
