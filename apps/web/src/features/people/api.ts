import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  STUDENT_PAGE_SIZE,
  type ImportPreview,
  type ImportResult,
  type LegacyStaff,
  type LegacyStudent,
  type NewAccountsDay,
  type PasswordResetResponse,
  type StaffDetail,
  type StaffRecord,
  type StaffRegistration,
  type StudentHistory,
  type StudentPage,
  type StudentRecord,
  type StudentRegistration,
} from '@portal/domain/people-constants';
import { TIMINGS } from '@portal/domain/constants';
import { ApiError, api, downloadBlob } from '../../lib/api-client';

/** Fetchers and query hooks of the people screens (students and staff). */

const timeout = TIMINGS.defaultTimeout;

export const peopleKeys = {
  students: ['students'] as const,
  studentPage: (p: StudentPageParams) => ['students', 'page', p] as const,
  student: (adm: string) => ['students', 'one', adm] as const,
  staff: ['staff'] as const,
  staffList: ['staff', 'list'] as const,
  staffMember: (id: string) => ['staff', 'one', id] as const,
};

export interface StudentPageParams {
  q?: string;
  student_class?: string;
  offset?: number;
  limit?: number;
}

/** One page of students (with the total) for the paged lists: fast with thousands of students. */
export function useStudentPage(p: StudentPageParams) {
  return useQuery({
    queryKey: peopleKeys.studentPage(p),
    queryFn: () =>
      api.get<StudentPage>('/students/search/', {
        query: { q: p.q, student_class: p.student_class, offset: p.offset, limit: p.limit ?? STUDENT_PAGE_SIZE },
        timeout,
      }),
    placeholderData: keepPreviousData,
  });
}

export function fetchStudent(adm: string) {
  return api.get<StudentRecord>(`/students/${encodeURIComponent(adm)}/`, { timeout });
}

export function useStudent(adm: string | undefined) {
  return useQuery({ queryKey: peopleKeys.student(adm ?? ''), queryFn: () => fetchStudent(adm!), enabled: Boolean(adm), retry: false });
}

export function fetchLegacyStudent(id: string) {
  return api.get<LegacyStudent>(`/studentBase/${encodeURIComponent(id)}`, { timeout });
}
export function fetchLegacyStaff(id: string) {
  return api.get<LegacyStaff>(`/staffBase/${encodeURIComponent(id)}`, { timeout });
}

export function useStaffList() {
  return useQuery({ queryKey: peopleKeys.staffList, queryFn: () => api.get<StaffRecord[]>('/staff/list/', { timeout }) });
}

export function fetchStaff(staffId: string) {
  return api.get<StaffDetail>(`/staff/${encodeURIComponent(staffId)}/`, { timeout });
}

/** On a 404 by staff ID, the screens try the internal id (`GET /staff/id/{id}/`). */
export async function findStaff(idOrStaffId: string): Promise<StaffDetail> {
  try {
    return await fetchStaff(idOrStaffId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && /^\d+$/.test(idOrStaffId)) {
      return api.get<StaffDetail>(`/staff/id/${idOrStaffId}/`, { timeout });
    }
    throw err;
  }
}

export function useStaffMember(staffId: string | undefined) {
  return useQuery({
    queryKey: peopleKeys.staffMember(staffId ?? ''),
    queryFn: () => fetchStaff(staffId!),
    enabled: Boolean(staffId),
    retry: false,
  });
}

/** A change to people: every student and staff list and record is fetched again once it succeeds. */
function usePeopleMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      void Promise.all([qc.invalidateQueries({ queryKey: peopleKeys.students }), qc.invalidateQueries({ queryKey: peopleKeys.staff })]),
  });
}

/** Create, update and delete of one kind of record at `base` (`/students/`, `/staff/`), by its admission number or staff ID. */
function recordMutations<Created, Updated>(base: string) {
  const at = (id: string) => `${base}${encodeURIComponent(id)}/`;
  return {
    useCreate: () => usePeopleMutation((body: Record<string, unknown>) => api.post<Created>(base, body)),
    useUpdate: () => usePeopleMutation(({ id, body }: { id: string; body: Record<string, unknown> }) => api.put<Updated>(at(id), body)),
    useDelete: () => usePeopleMutation((id: string) => api.delete<null>(at(id))),
  };
}

const students = recordMutations<StudentRegistration, StudentRecord>('/students/');
export const useCreateStudent = students.useCreate;
export const useUpdateStudent = students.useUpdate;
export const useDeleteStudent = students.useDelete;

/** The day's new accounts (no passwords: those come from this tab's session storage). */
export function useNewAccounts() {
  return useQuery({
    queryKey: ['people', 'new-accounts'],
    queryFn: () => api.get<NewAccountsDay>('/people/new-accounts/', { timeout }),
  });
}

/** Counts of a student's results and payments: with any, the delete screen offers withdrawing first. */
export function fetchStudentHistory(adm: string) {
  return api.get<StudentHistory>(`/students/${encodeURIComponent(adm)}/history/`, { timeout });
}

/** Withdraw (kept read-only, sign-in off) or readmit a student. */
export function useStudentStatus() {
  return usePeopleMutation(({ adm, action }: { adm: string; action: 'withdraw' | 'readmit' }) =>
    api.post<StudentRecord>(`/students/${encodeURIComponent(adm)}/${action}/`),
  );
}

const staff = recordMutations<StaffRegistration, StaffDetail>('/staff/');
export const useCreateStaff = staff.useCreate;
export const useUpdateStaff = staff.useUpdate;
export const useDeleteStaff = staff.useDelete;

export function useLegacyDelete() {
  return usePeopleMutation(({ kind, id }: { kind: 'student' | 'staff'; id: string }) =>
    api.delete<null>(`/${kind === 'student' ? 'studentBase' : 'staffBase'}/${encodeURIComponent(id)}`),
  );
}

export type PersonKind = 'student' | 'staff';

export function resetPassword(kind: PersonKind, publicId: string) {
  return api.post<PasswordResetResponse>(`/${kind === 'student' ? 'students' : 'staff'}/${encodeURIComponent(publicId)}/reset-password/`);
}

export type ImportKind = 'students' | 'staff';

export function previewImport(kind: ImportKind, csv: string) {
  return api.post<ImportPreview>(`/${kind}/import/preview/`, { csv }, { timeout: 60_000 });
}

export function useImport(kind: ImportKind) {
  return usePeopleMutation((csv: string) => api.post<ImportResult>(`/${kind}/import/`, { csv }, { timeout: 120_000 }));
}

/** Downloads a CSV (template or export) through the authenticated client. */
export async function downloadCsv(path: string, filename: string, query?: Record<string, string | undefined>) {
  const blob = await api.get<Blob>(path, { blob: true, query, timeout: 60_000 });
  downloadBlob(blob, filename);
}

/** PUT /students/{n}/photo/ (admin): a PNG or JPEG data URL, or '' to remove; answers with what it stored. */
export function useSaveStudentPhoto() {
  return usePeopleMutation(({ adm, photo }: { adm: string; photo: string }) =>
    api.put<{ photo: string }>(`/students/${encodeURIComponent(adm)}/photo/`, { photo }),
  );
}
