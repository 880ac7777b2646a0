import { useEffect, useState, type FormEvent } from 'react';
import { TERMS } from '@portal/domain/constants';
import { ATTENDANCE_SCREENS, type SchoolCalendarView } from '@portal/domain/attendance';
import {
  CALENDAR_EVENT_KINDS,
  CALENDAR_EVENT_KIND_LABELS,
  calendarEventSchema,
  termDatesSchema,
  type CalendarEvent,
  type CalendarEventKind,
} from '@portal/domain/attendance-calendar';
import { attendanceSettingsSchema, type AttendanceSettingsInput } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card, EmptyState } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { HeaderRow } from '../../../components/ui/scroll-table';
import { errorMessage, fieldErrorsOf, firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useAddEvent, useCalendar, useDeleteEvent, useSaveAttendanceSettings, useSaveTermDates } from '../api';
import { currentSession, useSessions } from '../../../lib/school-calendar';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { CarriedImportCard } from '../components/carried-import';
import { formatDate } from '../../../lib/datetime';
import { SessionSelect } from '../../../components/school/session-select';
import { useSchemaForm, type FieldErrors, type SchemaFormOptions } from '../../../lib/schema-form';

type Errors = Record<string, string[]>;

/** A refused save: its field errors, else one message for the form. */
function refusal(err: unknown): Errors {
  const fields = fieldErrorsOf(err);
  return Object.keys(fields).length ? fields : { form: [errorMessage(err, { fallback: M.saveFailed, useDetail: true })] };
}

/** The messages no field of the calendar's forms shows, together under the form. */
function FormError({ errors }: { errors: FieldErrors }) {
  const other = Object.entries(errors)
    .filter(([k]) => !['periods_per_day', 'saturday_classes', 'starts_on', 'ends_on', 'name', 'kind'].includes(k))
    .flatMap(([, v]) => v ?? []);
  if (!other.length) return null;
  return (
    <p className="text-sm text-red-700" role="alert">
      {other.join(' ')}
    </p>
  );
}

/**
 * The calendar's forms on the schema form, one flow for the three: `send` saves what passed the
 * schema and gives the toast's words; a refused save shows its messages on the form and moves the
 * focus to the first invalid field unless `keepFocus` (the forms that never moved it). `formProps`
 * go on the form element.
 */
function useCalendarForm<T extends Record<string, string>>(options: SchemaFormOptions<T>, send: (values: T) => Promise<string>) {
  const toast = useToast();
  const form = useSchemaForm<T>(options);
  const onValid = async (values: T) => {
    try {
      toast.success(await send(values));
    } catch (err) {
      form.fail(refusal(err), { focus: !options.keepFocus });
    }
  };
  const formProps = { ref: form.formRef, onSubmit: (e: FormEvent) => void form.submit(onValid)(e), noValidate: true };
  return { ...form, formProps };
}

type SettingsForm = { periods_per_day: string; saturday_classes: string };
/** The settings as sent: the periods a number, Saturdays a yes or no (the box's 'true'). */
const settingsBody = (f: SettingsForm): AttendanceSettingsInput => ({
  periods_per_day: f.periods_per_day === '2' ? 2 : 1,
  saturday_classes: f.saturday_classes === 'true',
});

function SettingsCard({ cal }: { cal: SchoolCalendarView }) {
  const save = useSaveAttendanceSettings();
  const form = useCalendarForm<SettingsForm>(
    {
      defaultValues: { periods_per_day: String(cal.settings.periods_per_day), saturday_classes: String(cal.settings.saturday_classes) },
      schema: attendanceSettingsSchema,
      toBody: settingsBody,
      keepFocus: true,
    },
    async (values) => {
      await save.mutateAsync(settingsBody(values));
      return M.settingsSaved;
    },
  );
  return (
    <Card title={L.settings}>
      <form className="flex flex-col gap-3" {...form.formProps} aria-label={L.settings}>
        <SelectField
          label={L.periodsPerDay}
          {...form.field('periods_per_day')}
          options={[
            { value: '1', label: L.onePeriod },
            { value: '2', label: L.twoPeriods },
          ]}
        />
        <CheckboxField
          label={L.saturdayClasses}
          className="min-h-11 items-center"
          checked={form.values.saturday_classes === 'true'}
          onChange={(on) => form.set('saturday_classes', String(on))}
        />
        <FormError errors={form.errors} />
        <div>
          <SaveCancel label={L.saveSettings} busy={save.isPending} />
        </div>
      </form>
    </Card>
  );
}

type TermForm = { starts_on: string; ends_on: string };

function TermRow({ cal, term }: { cal: SchoolCalendarView; term: (typeof TERMS)[number] }) {
  const save = useSaveTermDates();
  const stored = cal.terms.find((t) => t.term === term.value);
  /** The term's dates as sent, with the session and term they are for. */
  const termBody = (f: TermForm) => ({ session_id: cal.session_id, term: term.value, starts_on: f.starts_on, ends_on: f.ends_on });
  const form = useCalendarForm<TermForm>(
    {
      defaultValues: { starts_on: stored?.starts_on ?? '', ends_on: stored?.ends_on ?? '' },
      schema: termDatesSchema,
      toBody: termBody,
      keepFocus: true,
    },
    async (values) => {
      await save.mutateAsync(termBody(values));
      return M.termSaved(term.label);
    },
  );
  const { setValues } = form;
  // The stored dates again once a save (or another screen) changed them; the messages stay.
  useEffect(() => {
    setValues({ starts_on: stored?.starts_on ?? '', ends_on: stored?.ends_on ?? '' }, { keepErrors: true });
  }, [stored?.starts_on, stored?.ends_on, setValues]);
  return (
    <form
      className="flex flex-col gap-3 border-b border-slate-100 pb-4 last:border-0 last:pb-0"
      {...form.formProps}
      aria-label={term.label}
      data-testid={`term-${term.value}`}
    >
      <h3 className="text-base font-semibold">{term.label}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label={`${L.startsOn}: ${term.label}`} type="date" {...form.field('starts_on')} />
        <TextField label={`${L.endsOn}: ${term.label}`} type="date" {...form.field('ends_on')} />
      </div>
      <p className="text-sm text-slate-700" data-testid="term-counts">
        {L.schoolDays(stored?.school_days ?? null, stored?.registers ?? 0)}
      </p>
      <FormError errors={form.errors} />
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
  const add = useAddEvent();
  const form = useCalendarForm<EventForm>({ defaultValues: NO_EVENT, schema: calendarEventSchema, toBody: eventBody }, async (typed) => {
    await add.mutateAsync(eventBody(typed));
    form.setValues({ ...NO_EVENT, kind: typed.kind });
    return M.eventAdded;
  });
  const { errors } = form;
  return (
    <form
      className="mt-4 grid gap-3 border-t border-slate-100 pt-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
      {...form.formProps}
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
        <FormError errors={errors} />
      </div>
    </form>
  );
}

/** The events table's columns after the name: each column's label heads it and names its cells on a phone. */
const EVENT_COLUMNS: readonly { label: string; cell: (ev: CalendarEvent) => string }[] = [
  { label: L.eventKind, cell: (ev) => CALENDAR_EVENT_KIND_LABELS[ev.kind] },
  { label: L.startsOn, cell: (ev) => formatDate(ev.starts_on) },
  { label: L.endsOn, cell: (ev) => formatDate(ev.ends_on) },
];

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
          <HeaderRow labels={[L.eventName, ...EVENT_COLUMNS.map((c) => c.label)]} rowClassName="bg-slate-50" cellClassName="px-2 py-1.5">
            <th scope="col" className="px-2 py-1.5">
              <span className="sr-only">{L.deleteEvent}</span>
            </th>
          </HeaderRow>
          <tbody className="divide-y divide-slate-100">
            {cal.events.map((ev) => (
              <tr key={ev.id}>
                <th scope="row" className="px-2 py-1.5 text-left font-medium">
                  {ev.name}
                </th>
                {EVENT_COLUMNS.map((c) => (
                  <td key={c.label} data-label={c.label} className="px-2 py-1.5">
                    {c.cell(ev)}
                  </td>
                ))}
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
  const [params, patch] = useSearchParamPatch();
  const sessions = useSessions();
  const picked = Number(params.get('session_id'));
  const sessionId = picked > 0 ? picked : (currentSession(sessions.data)?.id ?? null);
  const cal = useCalendar(sessionId);
  return (
    <PageLayout title={ATTENDANCE_SCREENS.calendar.title}>
      <Card className="mb-4">
        <SessionSelect
          label={L.session}
          value={sessionId ? String(sessionId) : ''}
          onChange={(e) => patch({ session_id: e.target.value })}
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
