import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Term } from '@portal/domain/constants';
import type {
  AbsentToday,
  CarriedImport,
  CarriedImportPreview,
  MonthGrid,
  Register,
  RegisterSave,
  SchoolCalendarView,
  StudentAttendance,
} from '@portal/domain/attendance';
import type { AttendanceSettings, AttendanceSettingsInput, Period } from '@portal/domain/attendance-rules';
import type { CalendarEvent, CalendarEventInput, TermDates, TermDatesInput } from '@portal/domain/attendance-calendar';
import { api } from '../../lib/api-client';
import { currentTermKey } from '../../lib/current-term';
import { useGet } from '../../lib/get-query';
import { keptOffline } from '../../lib/offline-query';
import { useSessions } from '../../lib/school-calendar';

const T = { timeout: 15_000 };
const BASE = '/attendance';

export interface RegisterQuery {
  student_class: string;
  date: string;
  period: Period;
}
export interface StudentQuery {
  admission_number?: string;
  session_id?: number;
  term?: Term;
}

/**
 * Query keys: everything under `['attendance']`, so a saved register or calendar change makes every
 * attendance view stale; the report card and comment sheet read the totals, under `['results']`.
 */
export const attendanceKeys = {
  all: ['attendance'] as const,
  register: (q: RegisterQuery) => ['attendance', 'register', q] as const,
  month: (cls: string, month: string) => ['attendance', 'month', cls, month] as const,
  student: (q: StudentQuery) => ['attendance', 'student', q] as const,
  absent: (date: string) => ['attendance', 'absent', date] as const,
  calendar: (sessionId: number) => ['attendance', 'calendar', sessionId] as const,
};

/**
 * A register, kept on this phone (lib/offline-query.ts): offline it opens from the copy of the last
 * time it was read (issue 35.2). Not retried: a refusal shows at once.
 */
export const registerQuery = (q: RegisterQuery) => {
  const queryKey = attendanceKeys.register(q);
  return queryOptions({
    queryKey,
    ...keptOffline('register', queryKey, (signal) => api.get<Register>(`${BASE}/register/`, { query: { ...q }, ...T, signal })),
    retry: false,
  });
};

/** The register is not refetched behind the teacher's thumb: marks on screen stay until saved or reloaded. */
export function useRegister(q: RegisterQuery | null) {
  return useQuery({
    ...registerQuery(q ?? ({} as RegisterQuery)),
    enabled: q !== null,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useSaveRegister() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterSave) => api.put<Register>(`${BASE}/register/`, body, T),
    // Sent now even offline: the autosave outbox retries it (a paused mutation would never answer).
    networkMode: 'always',
    onSuccess: async (reg) => {
      qc.setQueryData(attendanceKeys.register({ student_class: reg.student_class, date: reg.date, period: reg.period }), reg);
      // Other views and the card's totals change; the open register keeps the answer just set.
      await Promise.all([
        qc.invalidateQueries({ queryKey: attendanceKeys.all, predicate: (query) => query.queryKey[1] !== 'register' }),
        qc.invalidateQueries({ queryKey: ['results'] }),
      ]);
    },
  });
}

export function useMonthGrid(cls: string, month: string) {
  const query = cls !== '' && month !== '' ? { student_class: cls, month } : null;
  return useGet<MonthGrid>(attendanceKeys.month(cls, month), `${BASE}/month/`, query);
}

export function useStudentAttendance(q: StudentQuery | null) {
  return useGet<StudentAttendance>(attendanceKeys.student(q ?? {}), `${BASE}/student/`, q);
}

/** `date` '' asks for the school's today (the answer says which date it is). */
export function useAbsentToday(date: string) {
  return useGet<AbsentToday>(attendanceKeys.absent(date), `${BASE}/absent/`, { date });
}

/** A session's calendar: kept on this phone, the register's arm list reads it offline (which session a date is in). */
export const calendarQuery = (sessionId: number) => {
  const queryKey = attendanceKeys.calendar(sessionId);
  return queryOptions({
    queryKey,
    ...keptOffline('calendar', queryKey, (signal) =>
      api.get<SchoolCalendarView>(`${BASE}/calendar/`, { query: { session_id: sessionId }, ...T, signal }),
    ),
  });
};

export function useCalendar(sessionId: number | null) {
  return useQuery({ ...calendarQuery(sessionId ?? 0), enabled: sessionId !== null && sessionId > 0 });
}

const holds = (cal: SchoolCalendarView | undefined, from: string, to: string) =>
  !!cal?.terms.some((t) => t.starts_on && t.ends_on && t.starts_on <= to && from <= t.ends_on);

/**
 * The session whose term dates meet `from`..`to`, as the server decides whose form teacher may open a
 * register or month: that session, else the current one. The current session's calendar is read first;
 * the others only when it does not hold the dates. null while not known yet.
 */
export function useSessionOfDates(from: string, to: string, enabled: boolean): number | null {
  const sessions = useSessions().data ?? [];
  const current = sessions.find((s) => s.is_current) ?? sessions[0];
  const first = useQuery({ ...calendarQuery(current?.id ?? 0), enabled: enabled && !!current && from !== '', staleTime: 60_000 });
  const lookFurther = enabled && !!first.data && !holds(first.data, from, to);
  const others = useQueries({
    queries: sessions.filter((s) => s.id !== current?.id).map((s) => ({ ...calendarQuery(s.id), enabled: lookFurther, staleTime: 60_000 })),
  });
  if (!enabled || !current) return null;
  if (from === '') return current.id;
  if (!first.data) return null;
  if (!lookFurther) return current.id;
  const found = others.find((q) => holds(q.data, from, to));
  if (found) return found.data!.session_id;
  return others.every((q) => q.data || q.isError) ? current.id : null;
}

/** Calendar changes move every count: registers, views and the card's times opened. */
function useCalendarMutation<I, O>(fn: (body: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: attendanceKeys.all }),
        qc.invalidateQueries({ queryKey: ['results'] }),
        // Term dates decide the current term every term-based screen opens on.
        qc.invalidateQueries({ queryKey: currentTermKey }),
      ]),
  });
}

export const useSaveAttendanceSettings = () =>
  useCalendarMutation((body: AttendanceSettingsInput) => api.put<AttendanceSettings>(`${BASE}/settings/`, body, T));
export const useSaveTermDates = () => useCalendarMutation((body: TermDatesInput) => api.put<TermDates>(`${BASE}/terms/`, body, T));
export const useAddEvent = () => useCalendarMutation((body: CalendarEventInput) => api.post<CalendarEvent>(`${BASE}/events/`, body, T));
export const useDeleteEvent = () => useCalendarMutation((id: number) => api.delete<void>(`${BASE}/events/${id}/`, T));

const postCarried = (body: CarriedImport) => api.post<CarriedImportPreview>(`${BASE}/carried/import/`, body, { timeout: 60_000 });

/** The preview of a carried-in totals file: nothing is saved. */
export function usePreviewCarried() {
  return useMutation({ mutationFn: (body: Omit<CarriedImport, 'dry_run'>) => postCarried({ ...body, dry_run: true }) });
}

export const useApplyCarried = () =>
  useCalendarMutation((body: Omit<CarriedImport, 'dry_run'>) => postCarried({ ...body, dry_run: false }));
