import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { TextField } from '../../../components/ui/field';

/** The reason a change to released results (or a deletion) must give, kept in the audit trail. */
export function ReasonField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (reason: string) => void;
  error?: string | string[] | undefined;
}) {
  return (
    <TextField
      label="Reason for the change"
      required
      value={value}
      maxLength={300}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={RESULT_MESSAGES.reasonRequired}
    />
  );
}
