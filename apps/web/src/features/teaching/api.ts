import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffRecord } from '@portal/domain/people-constants';
import type {
  CatalogueSubject,
  ClassArm,
  ClassLevel,
  LevelOffering,
  OfferingKind,
  SessionAssignments,
  Stream,
  StudentSubjects,
  SubjectSection,
  TeachingStructure,
} from '@portal/domain/teaching';
import type { StudentSubjectsAccess } from '@portal/domain/teaching';
import { api } from '../../lib/api-client';
import { schoolListKeys } from '../../lib/school-lists';

const T = { timeout: 15_000 };

/**
 * Query keys of the teaching screens. The school's class and subject lists live in `lib/`
 * (`schoolListKeys`): a change to arms or the catalogue invalidates them too, so every select
 * in the app shows the new names.
 */
export const teachingKeys = {
  all: ['teaching'] as const,
  structure: ['teaching', 'structure'] as const,
  assignments: ['teaching', 'assignments'] as const,
  assignmentsOf: (sessionId: string) => ['teaching', 'assignments', sessionId] as const,
  studentSubjects: (admission: string) => ['teaching', 'student-subjects', admission] as const,
  staff: ['teaching', 'staff'] as const,
};

export function useStructure() {
  return useQuery({ queryKey: teachingKeys.structure, queryFn: () => api.get<TeachingStructure>('/teaching/structure/', T) });
}

export function useStaffList(enabled = true) {
  return useQuery({ queryKey: teachingKeys.staff, queryFn: () => api.get<StaffRecord[]>('/staff/list/', T), enabled, staleTime: 60_000 });
}

export function useAssignments(sessionId: string) {
  return useQuery({
    queryKey: teachingKeys.assignmentsOf(sessionId),
    queryFn: () => api.get<SessionAssignments>('/teaching/assignments/', { query: { session_id: sessionId }, ...T }),
    enabled: sessionId !== '',
  });
}

export function useStudentSubjectsOf(admission: string | null) {
  return useQuery({
    queryKey: teachingKeys.studentSubjects(admission ?? ''),
    queryFn: () => api.get<StudentSubjectsAccess>(`/teaching/students/${encodeURIComponent(admission!)}/subjects/`, T),
    enabled: admission !== null,
    retry: false,
  });
}

/** Arms and the catalogue changed: the structure and every class or subject list in the app go stale. */
function useInvalidateStructure() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: teachingKeys.all }),
      qc.invalidateQueries({ queryKey: schoolListKeys.all }),
      // Student lists, results and fees carry class and subject names a rename changes.
      qc.invalidateQueries({ queryKey: ['results'] }),
      qc.invalidateQueries({ queryKey: ['students'] }),
    ]);
}

export function useCreateArm() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: (body: { level: ClassLevel; arm: string }) => api.post<ClassArm>('/classes/', body),
    onSuccess: invalidate,
  });
}

export function usePatchArm() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: { arm?: string; retired?: boolean } }) => api.patch<ClassArm>(`/classes/${id}/`, body),
    onSuccess: invalidate,
  });
}

export function useCreateSubject() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: (body: { name: string; code: string; section: SubjectSection }) => api.post<CatalogueSubject>('/subjects/', body),
    onSuccess: invalidate,
  });
}

export function usePatchSubject() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Partial<{ name: string; code: string; section: SubjectSection; retired: boolean }> }) =>
      api.patch<CatalogueSubject>(`/subjects/${id}/`, body),
    onSuccess: invalidate,
  });
}

export function useSaveOfferings() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: ({ level, subjects }: { level: ClassLevel; subjects: { subject_id: number; compulsory: boolean }[] }) =>
      api.put<LevelOffering>(`/teaching/offerings/${encodeURIComponent(level)}/`, { subjects }),
    onSuccess: invalidate,
  });
}

/** One subject's offering at several levels in one call (all or nothing); the answer is every level's list. */
export function useSetSubjectOfferings() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: ({ subjectId, offering, levels }: { subjectId: number; offering: OfferingKind; levels: ClassLevel[] }) =>
      api.put<LevelOffering[]>(`/teaching/subjects/${subjectId}/offerings/`, { offering, levels }),
    onSuccess: invalidate,
  });
}

export function useSaveStream() {
  const invalidate = useInvalidateStructure();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: { name: string; subject_ids: number[] } }) =>
      id === undefined ? api.post<Stream>('/teaching/streams/', body) : api.put<Stream>(`/teaching/streams/${id}/`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteStream() {
  const invalidate = useInvalidateStructure();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/teaching/streams/${id}/`), onSuccess: invalidate });
}

/** Every assignment-screen write answers the session's whole state: it replaces the cached one. */
function useAssignmentWrite<B extends { session_id: number }>(path: string, method: 'put' | 'post' = 'put') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => (method === 'put' ? api.put<SessionAssignments>(path, body) : api.post<SessionAssignments>(path, body)),
    onSuccess: (data, body) => {
      if (data && typeof data === 'object' && 'cells' in data) qc.setQueryData(teachingKeys.assignmentsOf(String(body.session_id)), data);
      return Promise.all([
        qc.invalidateQueries({ queryKey: teachingKeys.assignments }),
        qc.invalidateQueries({ queryKey: ['teaching', 'my-classes'] }),
        // Who may write which score changed: the score screens' per-student access is stale.
        qc.invalidateQueries({ queryKey: ['student-subjects'] }),
      ]);
    },
  });
}

export const useSaveAssignments = () =>
  useAssignmentWrite<{ session_id: number; cells: { arm_id: number; subject_id: number; staff_ids: number[] }[] }>(
    '/teaching/assignments/',
  );
export const useSaveFormTeachers = () =>
  useAssignmentWrite<{ session_id: number; arms: { arm_id: number; staff_id: number | null }[] }>('/teaching/form-teachers/');
export const useSaveWindow = () =>
  useAssignmentWrite<{ session_id: number; term: string; class_level: string; is_open: boolean }>('/teaching/windows/');
export const useSaveEnforcement = () => useAssignmentWrite<{ session_id: number; enforce_assignments: boolean }>('/teaching/enforcement/');

export function useCopyAssignments() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { session_id: number }) => api.post<{ copied: number; from: string }>('/teaching/assignments/copy/', body),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: teachingKeys.assignments }),
        qc.invalidateQueries({ queryKey: ['teaching', 'my-classes'] }),
      ]),
  });
}

export function useSaveStudentSubjects(admission: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { stream_id: number | null; add: number[]; drop: number[] }) =>
      api.put<StudentSubjects>(`/teaching/students/${encodeURIComponent(admission)}/subjects/`, body),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: teachingKeys.studentSubjects(admission) }),
        qc.invalidateQueries({ queryKey: ['student-subjects'] }),
      ]),
  });
}
