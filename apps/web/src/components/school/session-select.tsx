import { forwardRef } from 'react';
import { SelectField, type SelectFieldProps } from '../ui/field';
import { sessionOptions, useSessions } from '../../lib/school-calendar';

export interface SessionSelectProps extends Omit<SelectFieldProps, 'options' | 'placeholder'> {
  /** The empty choice's text; `false` for none. Default: "Loading sessions..." then "Select session". */
  placeholder?: string | false;
}

/** The school's sessions as a select (value: the session's id), the current one labelled "(current)". */
export const SessionSelect = forwardRef<HTMLSelectElement, SessionSelectProps>(function SessionSelect({ placeholder, ...rest }, ref) {
  const sessions = useSessions();
  const empty = placeholder === false ? undefined : (placeholder ?? (sessions.isPending ? 'Loading sessions...' : 'Select session'));
  return <SelectField ref={ref} placeholder={empty} options={sessionOptions(sessions.data)} {...rest} />;
});
