import { forwardRef, type ReactNode } from 'react';
import { SelectField, type SelectFieldProps } from '../ui/field';
import { classOptions, useClasses } from '../../lib/school-lists';

export interface ClassSelectProps extends Omit<SelectFieldProps, 'options' | 'label'> {
  label?: ReactNode;
  /** The arms to choose among; default: the school's current arms (and the value, if it is a past one). */
  arms?: readonly string[];
}

/**
 * A class arm as a select: label "Class" and the empty choice "Select class" unless told otherwise.
 * The one picker of an arm the screens share, so each does not load and list the arms itself.
 */
export const ClassSelect = forwardRef<HTMLSelectElement, ClassSelectProps>(function ClassSelect(
  { arms, label = 'Class', placeholder = 'Select class', value, ...rest },
  ref,
) {
  const classes = useClasses();
  const options = arms ?? classOptions(classes.data, typeof value === 'string' ? value : undefined);
  return <SelectField ref={ref} label={label} placeholder={placeholder} options={options} value={value} {...rest} />;
});
