import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TERMS } from '@portal/domain/constants';
import { ATTENDANCE_SCREENS, type SchoolCalendarView } from '@portal/domain/attendance';
import {
  CALENDAR_EVENT_KINDS,
  CALENDAR_EVENT_KIND_LABELS,
  calendarEventSchema,
  type CalendarEventKind,
} from '@portal/domain/attendance-calendar';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { errorMessage, fieldErrorsOf, firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useAddEvent, useCalendar, useDeleteEvent, useSaveAttendanceSettings, useSaveTermDates } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { CarriedImportCard } from '../components/carried-import';
import { formatDate } from '../../../lib/datetime';
import { SessionSelect } from '../../../components/school/session-select';
import { useSchemaForm } from '../../../lib/schema-form';

type Errors = Record<string, string[]>;

/** A refused save: its field errors, else one message for the form. */
function refusal(err: unknown): Errors {
  const fields = fieldErrorsOf(err);
  return Object.keys(fields).length ? fields : { form: [errorMessage(err, { fallback: M.saveFailed, useDetail: true })] };
}

function FormError({ errors }: { errors: Errors }) {
  const other = Object.entries(errors)
    .filter(([k]) => !['periods_per_day', 'saturday_classes', 'starts_on', 'ends_on', 'name', 'kind'].includes(k))
    .flatMap(([, v]) => v);
  if (!other.length) return null;
  return (
    <p className="text-sm text-red-700" role="alert">
      {other.join(' ')}
    </p>
  );
}

function SettingsCard({ cal }: { cal: SchoolCalendarView }) {
  const toast = useToast();
  const save = useSaveAttendanceSettings();
  const [periods, setPeriods] = useState<string>(String(cal.settings.periods_per_day));
  const [saturday, setSaturday] = useState(cal.settings.saturday_classes);
  const [errors, setErrors] = useState<Errors>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ periods_per_day: periods === '2' ? 2 : 1, saturday_classes: saturday });
      toast.success(M.settingsSaved);
    } catch (err) {
      setErrors(refusal(err));
    }
  };
  return (
    <Card title={L.settings}>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate aria-label={L.settings}>
        <SelectField
          label={L.periodsPerDay}
          value={periods}
          onChange={(e) => setPeriods(e.target.value)}
          options={[
            { value: '1', label: L.onePeriod },
            { value: '2', label: L.twoPeriods },
          ]}
          error={errors.periods_per_day}
        />
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input type="checkbox" className="h-5 w-5" checked={saturday} onChange={(e) => setSaturday(e.target.checked)} />
          {L.saturdayClasses}
        </label>
        <FormError errors={errors} />
        <div>
          <Button type="submit" loading={save.isPending}>
            {L.saveSettings}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function TermRow({ cal, term }: { cal: SchoolCalendarView; term: (typeof TERMS)[number] }) {
  const toast = useToast();
  const save = useSaveTermDates();
  const stored = cal.terms.find((t) => t.term === term.value);
  const [starts, setStarts] = useState(stored?.starts_on ?? '');
  const [ends, setEnds] = useState(stored?.ends_on ?? '');
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    setStarts(stored?.starts_on ?? '');
    setEnds(stored?.ends_on ?? '');
  }, [stored?.starts_on, stored?.ends_on]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ session_id: cal.session_id, term: term.value, starts_on: starts, ends_on: ends });
      toast.success(M.termSaved(term.label));
    } catch (err) {
      setErrors(refusal(err));
    }
  };
  return (
    <form
      className="flex flex-col gap-3 border-b border-slate-100 pb-4 last:border-0 last:pb-0"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={term.label}
      data-testid={`term-${term.value}`}
    >
      <h3 className="text-base font-semibold">{term.label}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={`${L.startsOn}: ${term.label}`}
          type="date"
          value={starts}
          onChange={(e) => setStarts(e.target.value)}
          error={errors.starts_on}
        />
        <TextField
          label={`${L.endsOn}: ${term.label}`}
          type="date"
          value={ends}
          onChange={(e) => setEnds(e.target.value)}
          error={errors.ends_on}
        />
      </div>
      <p className="text-sm text-slate-700" data-testid="term-counts">
        {L.schoolDays(stored?.school_days ?? null, stored?.registers ?? 0)}
      </p>
      <FormError errors={errors} />
      <div>
        <Button type="submit" variant="secondary" loading={save.isPending} aria-label={`${L.saveTerm}: ${term.label}`}>
          {L.saveTerm}
        </Button>
      </div>
    </form>
  );
}

type EventForm = { name: string; kind: string; starts_on: string; ends_on: string };
const NO_EVENT: EventForm = { name: '', kind: 'holiday', starts_on: '', ends_on: '' };
/** What is sent: a one-day event when no last day is given. */
const eventBody = (f: EventForm) => ({
  name: f.name,
  kind: f.kind as CalendarEventKind,
  starts_on: f.starts_on,
  ends_on: f.ends_on || f.starts_on,
});

function AddEventForm() {
  const toast = useToast();
  const add = useAddEvent();
  const form = useSchemaForm<EventForm>({ defaultValues: NO_EVENT, schema: calendarEventSchema, toBody: eventBody });
  const { errors } = form;
  const onValid = async (typed: EventForm) => {
    try {
      await add.mutateAsync(eventBody(typed));
      toast.success(M.eventAdded);
      form.setValues({ ...NO_EVENT, kind: typed.kind });
    } catch (err) {
      form.fail(refusal(err));
    }
  };
  return (
    <form
      className="mt-4 grid gap-3 border-t border-slate-100 pt-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
      ref={form.formRef}
      onSubmit={(e) => void form.submit(onValid)(e)}
      noValidate
      aria-label={L.addEventTitle}
    >
      {/* Says what the fields below the list are for. */}
      <h3 className="text-base font-semibold sm:col-span-2 lg:col-span-5">{L.addEventTitle}</h3>
      <TextField label={L.eventName} {...form.field('name')} maxLength={80} />
      <SelectField
        label={L.eventKind}
        {...form.field('kind')}
        options={CALENDAR_EVENT_KINDS.map((k) => ({ value: k, label: CALENDAR_EVENT_KIND_LABELS[k] }))}
      />
      <TextField label={L.startsOn} type="date" {...form.field('starts_on')} />
      <TextField label={L.endsOn} type="date" {...form.field('ends_on')} />
      <Button type="submit" loading={add.isPending}>
        {L.addEvent}
      </Button>
      <div className="sm:col-span-2 lg:col-span-5">
        <FormError errors={Object.fromEntries(Object.entries(errors).filter((e): e is [string, string[]] => !!e[1]))} />
      </div>
    </form>
  );
}

function EventsCard({ cal }: { cal: SchoolCalendarView }) {
  const toast = useToast();
  const remove = useDeleteEvent();
  const [confirming, setConfirming] = useState<number | null>(null);
  const [failure, setFailure] = useState<{ id: number; text: string } | null>(null);
  const run = async (id: number) => {
    setFailure(null);
    try {
      await remove.mutateAsync(id);
      toast.success(M.eventDeleted);
      setConfirming(null);
    } catch (err) {
      setFailure({ id, text: firstServerMessage(err) ?? M.saveFailed });
    }
  };
  return (
    <Card title={L.events}>
      {cal.events.length === 0 ? (
        <EmptyState>{L.noEvents}</EmptyState>
      ) : (
        <table className="stack-sm stack-sm-1 w-full text-left text-sm" aria-label={L.events} data-testid="events">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-2 py-1.5">
                {L.eventName}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.eventKind}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.startsOn}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.endsOn}
              </th>
              <th scope="col" className="px-2 py-1.5">
                <span className="sr-only">{L.deleteEvent}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {cal.events.map((ev) => (
              <tr key={ev.id}>
                <th scope="row" className="px-2 py-1.5 text-left font-medium">
                  {ev.name}
                </th>
                <td data-label={L.eventKind} className="px-2 py-1.5">
                  {CALENDAR_EVENT_KIND_LABELS[ev.kind]}
                </td>
                <td data-label={L.startsOn} className="px-2 py-1.5">
                  {formatDate(ev.starts_on)}
                </td>
                <td data-label={L.endsOn} className="px-2 py-1.5">
                  {formatDate(ev.ends_on)}
                </td>
                <td className="px-2 py-1.5">
                  {confirming === ev.id ? (
                    <ConfirmPanel
                      label={`${L.deleteEvent}: ${ev.name}`}
                      confirm={L.deleteEvent}
                      danger
                      loading={remove.isPending}
                      onConfirm={() => void run(ev.id)}
                      onCancel={() => setConfirming(null)}
                      className=""
                    >
                      {M.deleteEventConfirm(ev.name)}
                    </ConfirmPanel>
                  ) : (
                    <Button variant="ghost" onClick={() => setConfirming(ev.id)} aria-label={`${L.deleteEvent}: ${ev.name}`}>
                      {L.deleteEvent}
                    </Button>
                  )}
                  {failure?.id === ev.id && (
                    <p className="mt-1 text-sm text-red-700" role="alert">
                      {failure.text}
                    </p>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddEventForm />
    </Card>
  );
}

/** /school-calendar (admin): registers a day, Saturdays, the terms' dates, holidays and breaks, carried-in totals. */
export default function SchoolCalendarPage() {
  const [params, setParams] = useSearchParams();
  const sessions = useSessions();
  const picked = Number(params.get('session_id'));
  const sessionId = picked > 0 ? picked : ((sessions.data?.find((s) => s.is_current) ?? sessions.data?.[0])?.id ?? null);
  const cal = useCalendar(sessionId);
  return (
    <PageLayout title={ATTENDANCE_SCREENS.calendar.title}>
      <Card className="mb-4">
        <SessionSelect
          label={L.session}
          value={sessionId ? String(sessionId) : ''}
          onChange={(e) => setParams({ session_id: e.target.value }, { replace: true })}
        />
      </Card>
      {sessionId && (
        <QueryView query={cal} messages={{ fallback: M.viewFailed, useDetail: true }}>
          {(c) => (
            <div className="flex flex-col gap-4" key={c.session_id}>
              <SettingsCard cal={c} />
              <Card title={L.terms}>
                <div className="flex flex-col gap-4">
                  {TERMS.map((t) => (
                    <TermRow key={t.value} cal={c} term={t} />
                  ))}
                </div>
              </Card>
              <EventsCard cal={c} />
              <CarriedImportCard sessionId={c.session_id} sessionName={c.session_name} />
            </div>
          )}
        </QueryView>
      )}
    </PageLayout>
  );
}
