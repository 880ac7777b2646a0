import { TextField } from '../../../components/ui/field';

/** The results screens' Admission Number input: required, upper case as it is typed, never autofilled. */
export function AdmissionNumberField({
  value,
  onChange,
  readOnly,
}: {
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
}) {
  return (
    <TextField
      label="Admission Number"
      required
      value={value}
      readOnly={readOnly}
      autoComplete="off"
      onChange={(e) => onChange(e.target.value.toUpperCase())}
    />
  );
}
