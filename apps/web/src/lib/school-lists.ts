import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueSubject, ClassArm } from '@portal/domain/teaching';
import { api } from './api-client';

/**
 * The school's own lists of classes (arms) and subjects: every class or subject select of every
 * feature reads them, so they live here rather than in one feature. The teaching screens change
 * them and invalidate `schoolListKeys.all`.
 */
export const schoolListKeys = {
  all: ['school-lists'] as const,
  classes: ['school-lists', 'classes'] as const,
  subjects: ['school-lists', 'subjects'] as const,
};

/** One of the lists, kept five minutes. */
const listQuery = <T>(queryKey: readonly string[], path: string) =>
  queryOptions({ queryKey, queryFn: () => api.get<T[]>(path, { timeout: 10_000 }), staleTime: 5 * 60_000 });

/** Every arm of the school, retired ones included (flagged), in level then arm order. */
export const classesQuery = listQuery<ClassArm>(schoolListKeys.classes, '/classes/');
export function useClasses() {
  return useQuery(classesQuery);
}

/** The subject catalogue, retired subjects included (flagged). */
export const subjectsQuery = listQuery<CatalogueSubject>(schoolListKeys.subjects, '/subjects/');
export function useSubjects() {
  return useQuery(subjectsQuery);
}

/** Names of the arms new data may use (not retired). */
export function currentClassNames(arms: readonly ClassArm[] | undefined): string[] {
  return (arms ?? []).filter((a) => !a.retired).map((a) => a.name);
}

/** Names of every arm, retired included: filters of history screens still find old classes. */
export function allClassNames(arms: readonly ClassArm[] | undefined): string[] {
  return (arms ?? []).map((a) => a.name);
}

/** The current arms' names, plus `keep` (a value already chosen) if it is not among them. */
export function classOptions(arms: readonly ClassArm[] | undefined, keep?: string): string[] {
  const names = currentClassNames(arms);
  return keep && !names.includes(keep) ? [...names, keep] : names;
}

/** Names of the catalogue subjects still offered (not retired). */
export function currentSubjectNames(subjects: readonly CatalogueSubject[] | undefined): string[] {
  return (subjects ?? []).filter((s) => !s.retired).map((s) => s.name);
}
